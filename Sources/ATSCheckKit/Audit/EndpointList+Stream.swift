import ATSPolicy
import Foundation
import Judging

extension EndpointList {
    /// How much of a file without a telling extension is read to guess its format.
    static let guessPrefixBytes = 64 << 10

    /// Reads a list whose extension says nothing: the format is guessed from its start; the text format is then
    /// streamed, YAML and JSON are read whole (within ``InputLimits/endpointStructuredBytes``).
    static func loadGuessing(path: String) throws -> EndpointList {
        let handle: FileHandle
        do { handle = try BoundedFileReader.open(path: path) } catch {
            throw InputFileError(file: path, reason: error.reason)
        }
        defer { try? handle.close() }
        var head = Data()
        while head.count < guessPrefixBytes {
            guard let chunk = try readChunk(handle, path: path), !chunk.isEmpty else { break }
            head.append(chunk)
        }
        let format = guess(String(decoding: head, as: UTF8.self))
        if format == .text { return try streamText(handle, head: head, file: path) }
        var data = head
        while let chunk = try readChunk(handle, path: path), !chunk.isEmpty {
            data.append(chunk)
            if data.count > InputLimits.endpointStructuredBytes {
                throw InputFileError(
                    file: path, reason: InputLimits.tooLargeReason(limit: InputLimits.endpointStructuredBytes))
            }
        }
        return try parse(text: StructuredFile.decodeUTF8(data, file: path), file: path, format: format)
    }

    /// Parses the text format line by line: only one chunk and one partial line are held besides the entries.
    /// Line endings are `\n`, `\r\n` and `\r`, as in ``parseText(_:file:)``.
    /// - Throws: ``InputFileError`` for a line that is not UTF-8 or a file over ``InputLimits/endpointTextBytes``.
    static func streamText(_ handle: FileHandle, head: Data, file: String) throws -> EndpointList {
        var builder = TextListBuilder(file: file)
        var pending = head
        var total = head.count
        var lineNumber = 1
        func emit(_ segment: Data) throws {
            var bytes = segment
            if bytes.last == 0x0D { bytes.removeLast() }  // the \r of \r\n
            let text = try StructuredFile.decodeUTF8(bytes, file: file, firstLine: lineNumber)
            // A lone \r is a line break too.
            for piece in text.unicodeScalars.split(separator: "\r", omittingEmptySubsequences: false) {
                builder.add(Substring(String(piece)), line: lineNumber)
                lineNumber += 1
            }
        }
        func drainLines() throws {
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                try emit(pending[start..<newline])
                start = pending.index(after: newline)
            }
            pending = Data(pending[start...])
        }
        try drainLines()
        while let chunk = try readChunk(handle, path: file), !chunk.isEmpty {
            total += chunk.count
            if total > InputLimits.endpointTextBytes {
                throw InputFileError(
                    file: file, reason: InputLimits.tooLargeReason(limit: InputLimits.endpointTextBytes))
            }
            pending.append(chunk)
            try drainLines()
        }
        if !pending.isEmpty { try emit(pending) }
        return builder.list
    }

    private static func readChunk(_ handle: FileHandle, path: String) throws -> Data? {
        do { return try handle.read(upToCount: 1 << 16) } catch {
            throw InputFileError(file: path, reason: "cannot read the file")
        }
    }
}
