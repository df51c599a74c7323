import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file opened for reading at offsets: an `.ipa`, or one file of an `.app` folder.
///
/// It is opened without blocking and checked with `fstat` on the descriptor it then reads, so a FIFO, a socket or a
/// device given as the bundle (or swapped in for a file of a folder) is refused at once instead of blocking, and
/// the size checked is the size of the file read. Every read is checked against that size before it is made, so
/// no offset taken from the file's own bytes ever reaches `pread` unchecked.
final class RegularFile {
    /// Why a file could not be read.
    enum Failure: Error, Equatable {
        case missing
        case notRegular
        case unreadable
        /// A read past the end (the file's own structure points outside it, or it shrank while read).
        case outOfRange
    }

    /// The size when opened.
    let size: UInt64
    private let descriptor: Int32

    /// Opens a file.
    /// - Throws: ``Failure``: `missing`, `notRegular` (a folder, FIFO, socket or device), `unreadable`.
    init(path: String) throws(Failure) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw errno == ENOENT ? .missing : .unreadable }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw .unreadable
        }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_size >= 0 else {
            close(fd)
            throw .notRegular
        }
        descriptor = fd
        size = UInt64(info.st_size)
    }

    deinit { close(descriptor) }

    /// Whether `count` bytes at `offset` lie inside the file (no overflow: both are compared, never added).
    func contains(offset: UInt64, count: UInt64) -> Bool { offset <= size && count <= size - offset }

    /// Fills a buffer with the bytes at an offset.
    /// - Throws: ``Failure/outOfRange`` when they are not all inside the file; `unreadable` on an I/O error.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(Failure) {
        guard contains(offset: offset, count: UInt64(buffer.count)) else { throw .outOfRange }
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            // In range of off_t: offset + done < size, and size came from st_size.
            let got = pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable
            }
            if got == 0 { throw .outOfRange }
            done += got
        }
    }

    /// The bytes at an offset.
    /// - Throws: as ``read(into:at:)``.
    func bytes(at offset: UInt64, count: Int) throws(Failure) -> [UInt8] {
        guard contains(offset: offset, count: UInt64(count)) else { throw .outOfRange }
        var out = [UInt8](repeating: 0, count: count)
        var failure: Failure?
        out.withUnsafeMutableBytes { buffer in
            do { try read(into: buffer, at: offset) } catch { failure = (error as? Failure) ?? .unreadable }
        }
        if let failure { throw failure }
        return out
    }
}

/// Memory allocated once at its final size, filled, and handed to `Data` without a copy: a 500 MB executable is
/// held once, not once in a growing buffer and again in its copy.
enum OwnedBytes {
    /// A `Data` of `count` bytes written by `fill`.
    /// - Throws: what `fill` throws (the memory is released).
    static func data(count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows -> Data {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 16)
        do {
            try fill(UnsafeMutableRawBufferPointer(start: memory, count: count))
        } catch {
            memory.deallocate()
            throw error
        }
        return Data(bytesNoCopy: memory, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }
}
