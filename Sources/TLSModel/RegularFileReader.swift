import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads input files that must be regular files, never more than a limit, and never blocks.
///
/// A file is opened with `O_NONBLOCK` and its type checked with `fstat` on the open descriptor (not on the path, so
/// it cannot change between the check and the read): a FIFO with no writer, a terminal or a device (`/dev/zero`) is
/// refused at once instead of hanging the run or streaming forever. It lives in the model module so that every module
/// that reads a user's file uses it, the probe's `--ca-file` reader as well as ATSPolicy's `BoundedFileReader`
/// (docs/reliability.md, "Input files").
public enum RegularFileReader {
    /// Why a file could not be read; ``reason`` is the text after `FILE: `.
    public enum Failure: Error, Equatable, Sendable {
        case missing, unreadable
        /// A directory, FIFO, device or socket: `kind` names it (`a FIFO (named pipe)`).
        case notRegular(kind: String)
        case tooLarge(limit: Int)

        /// `no such file`, `cannot read the file`, `a FIFO (named pipe), not a regular file`,
        /// `larger than N MB limit`.
        public var reason: String {
            switch self {
            case .missing: return "no such file"
            case .unreadable: return "cannot read the file"
            case .notRegular(let kind): return "\(kind), not a regular file"
            case .tooLarge(let limit): return RegularFileReader.tooLargeReason(limit: limit)
            }
        }
    }

    /// `larger than 8 MB limit` (whole megabytes), or `larger than 2048-byte limit` below one megabyte.
    public static func tooLargeReason(limit: Int) -> String {
        limit >= 1 << 20 ? "larger than \(limit >> 20) MB limit" : "larger than \(limit)-byte limit"
    }

    /// The file's bytes.
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the most bytes accepted.
    /// - Throws: ``Failure``.
    public static func read(path: String, limit: Int) throws(Failure) -> Data {
        let (handle, size) = try open(path: path)
        defer { try? handle.close() }
        var data = Data()
        // The size is known: one allocation instead of doublings that briefly hold twice the file.
        data.reserveCapacity(min(size, limit) + 1)
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { throw .unreadable }
            guard let chunk, !chunk.isEmpty else { return data }
            data.append(chunk)
            if data.count > limit { throw .tooLarge(limit: limit) }
        }
    }

    /// Opens a regular file for reading, without blocking.
    /// - Returns: the handle (it closes the descriptor) and the file's size when opened.
    /// - Throws: ``Failure``: `.missing`, `.notRegular` for a directory, FIFO, device or socket, else `.unreadable`.
    public static func open(path: String) throws(Failure) -> (handle: FileHandle, size: Int) {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .missing
            // A UNIX socket cannot be opened at all.
            case ENXIO: throw .notRegular(kind: "a socket or a device without a driver")
            default: throw .unreadable
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            _ = Glibc.close(fd)
            throw .unreadable
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            _ = Glibc.close(fd)
            throw .notRegular(kind: kindName(type))
        }
        return (FileHandle(fileDescriptor: fd, closeOnDealloc: true), Int(info.st_size))
    }

    /// How a file that is not regular is named in the reason.
    static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }
}
