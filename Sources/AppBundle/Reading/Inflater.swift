import CZlibShim
import Foundation

/// Inflates one zip entry's raw deflate data straight into the memory that will hold the file (zlib, no copy).
///
/// Input is read from the archive only inside the entry's compressed size, and output is never written past the
/// size the directory declares: one byte more is asked for into a scratch byte, so an entry that inflates past its
/// declared size is caught, and a stream that ends early or never ends is an error, not a wait for more input.
/// Every pass of the loop consumes input or produces output, or the entry is refused: it always ends.
enum Inflater {
    /// Why inflating stopped.
    enum Failure: Error {
        /// The data is not valid deflate data.
        case corrupt
        /// The stream needs more input than the entry's compressed size holds.
        case endsEarly
        /// The stream produces more than the declared size.
        case tooLong
        /// The stream ended before the declared size.
        case tooShort(produced: Int)
    }

    /// The input read per `pread`.
    static let chunk = 64 << 10

    /// Inflates `compressedSize` bytes of `file` at `offset` into `output` (exactly its size).
    /// - Parameters:
    ///   - progress: called with each new run of output bytes (its count) before the next is inflated; throws to
    ///     stop (the ratio and total caps).
    /// - Throws: ``Failure``, ``RegularFile/Failure``, or what `progress` throws.
    static func inflate(
        _ file: RegularFile, at offset: UInt64, compressedSize: UInt64, into output: UnsafeMutableRawBufferPointer,
        progress: (Int) throws -> Void
    ) throws {
        var stream = z_stream()
        guard czlibshim_inflate_init_raw(&stream) == Z_OK else { throw Failure.corrupt }
        defer { inflateEnd(&stream) }
        var input = [UInt8](repeating: 0, count: chunk)
        var read: UInt64 = 0
        var produced = 0
        var scratch: UInt8 = 0
        try input.withUnsafeMutableBytes { inputBuffer in
            let inputBase = inputBuffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
            while true {
                if stream.avail_in == 0, read < compressedSize {
                    let count = Int(min(UInt64(chunk), compressedSize - read))
                    try file.read(
                        into: UnsafeMutableRawBufferPointer(rebasing: inputBuffer[0..<count]), at: offset + read)
                    read += UInt64(count)
                    stream.next_in = inputBase
                    stream.avail_in = uInt(count)
                }
                let room = output.count - produced
                let window = min(room, 1 << 30)
                let inputBefore = stream.avail_in
                let result: Int32
                if window > 0 {
                    stream.next_out = (output.baseAddress! + produced).assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = uInt(window)
                    result = zlibInflate(&stream)
                    let made = window - Int(stream.avail_out)
                    produced += made
                    if made > 0 { try progress(made) }
                } else {
                    // The declared size is reached: one more byte means the entry is longer than it says.
                    result = withUnsafeMutablePointer(to: &scratch) { byte in
                        stream.next_out = byte
                        stream.avail_out = 1
                        return zlibInflate(&stream)
                    }
                    if stream.avail_out == 0 { throw Failure.tooLong }
                }
                switch result {
                case Z_STREAM_END:
                    guard produced == output.count else { throw Failure.tooShort(produced: produced) }
                    return
                case Z_OK, Z_BUF_ERROR:
                    let consumed = stream.avail_in != inputBefore
                    let madeProgress = consumed || (window > 0 && stream.avail_out != uInt(window))
                    if !madeProgress {
                        // No input left to give and none taken: the stream needs bytes the entry does not have.
                        if stream.avail_in == 0, read == compressedSize { throw Failure.endsEarly }
                        throw Failure.corrupt
                    }
                default:
                    throw Failure.corrupt
                }
            }
        }
    }

    private static func zlibInflate(_ stream: inout z_stream) -> Int32 { CZlibShim.inflate(&stream, Z_NO_FLUSH) }

    /// The CRC-32 of bytes (zlib's, 1 GB at a time).
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CZlibShim.crc32(0, nil, 0)
        var at = 0
        while at < bytes.count {
            let count = min(bytes.count - at, 1 << 30)
            crc = CZlibShim.crc32(crc, (bytes.baseAddress! + at).assumingMemoryBound(to: Bytef.self), uInt(count))
            at += count
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
