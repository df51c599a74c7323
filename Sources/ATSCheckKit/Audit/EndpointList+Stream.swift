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
    /// - Throws: ``InputFileError`` for a line that is not UTF-8 or longer than ``InputLimits/endpointLineBytes``
    ///   (as soon as its first bytes past the limit are read), or a file over ``InputLimits/endpointTextBytes``.
    static func streamText(_ handle: FileHandle, head: Data, file: String) throws -> EndpointList {
        var builder = TextListBuilder(file: file)
        var pending = head
        var total = head.count
        var lineNumber = 1
        func emit(_ bytes: Data) throws {
            if bytes.count > InputLimits.endpointLineBytes { throw lineTooLong(file: file, line: lineNumber) }
            let text = try StructuredFile.decodeUTF8(bytes, file: file, firstLine: lineNumber)
            builder.add(Substring(text), line: lineNumber)
            lineNumber += 1
        }
        // Hands on every complete line; a partial line stays pending (only it is scanned again with the next chunk,
        // and it is never longer than the line limit, so reading stays linear).
        func drainLines(atEnd: Bool) throws {
            var start = pending.startIndex
            var index = start
            while index < pending.endIndex {
                let byte = pending[index]
                guard byte == 0x0A || byte == 0x0D else {
                    index = pending.index(after: index)
                    continue
                }
                let next = pending.index(after: index)
                // A \r that ends the chunk may be the first half of a \r\n: wait for the next byte.
                if byte == 0x0D && next == pending.endIndex && !atEnd { break }
                try emit(pending[start..<index])
                start =
                    byte == 0x0D && next < pending.endIndex && pending[next] == 0x0A ? pending.index(after: next) : next
                index = start
            }
            pending = Data(pending[start...])
            if pending.count > InputLimits.endpointLineBytes + 1 { throw lineTooLong(file: file, line: lineNumber) }
        }
        try drainLines(atEnd: false)
        while let chunk = try readChunk(handle, path: file), !chunk.isEmpty {
            total += chunk.count
            if total > InputLimits.endpointTextBytes {
                throw InputFileError(
                    file: file, reason: InputLimits.tooLargeReason(limit: InputLimits.endpointTextBytes))
            }
            pending.append(chunk)
            try drainLines(atEnd: false)
        }
        try drainLines(atEnd: true)
        if !pending.isEmpty { try emit(pending) }
        return builder.list
    }

    /// `FILE:LINE: longer than 2048 bytes, …`: a line that cannot be one endpoint.
    static func lineTooLong(file: String, line: Int) -> InputFileError {
        InputFileError(
            file: file, line: line,
            reason: "longer than \(InputLimits.endpointLineBytes) bytes, the limit for one endpoint (a URL or "
                + "host[:port]): not an endpoint list")
    }

    /// Refuses text whose lines (split as ``parseText(_:file:)`` splits them) are longer than the line limit, in one
    /// pass over its bytes.
    /// - Throws: ``InputFileError`` naming the first such line.
    static func checkLineLengths(_ text: String, file: String) throws {
        var line = 1
        var length = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x0A || byte == 0x0D {
                // \r\n is one line break.
                if !(byte == 0x0A && previous == 0x0D) { line += 1 }
                length = 0
            } else {
                length += 1
                if length > InputLimits.endpointLineBytes { throw lineTooLong(file: file, line: line) }
            }
            previous = byte
        }
    }

    private static func readChunk(_ handle: FileHandle, path: String) throws -> Data? {
        do { return try handle.read(upToCount: 1 << 16) } catch {
            throw InputFileError(file: path, reason: "cannot read the file")
        }
    }
}
