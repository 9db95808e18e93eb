import Foundation

/// Debian's chromium, headless, as a person's browser would load a page: the DOM it built, and a screenshot.
enum HeadlessBrowser {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let executable = "/usr/bin/chromium"

    /// The DOM chromium built from `url`, serialized.
    static func dom(_ url: String) throws -> String {
        try run(["--dump-dom", url]).output
    }

    /// A PNG of `url` at 1100×900, in a new file.
    static func screenshot(_ url: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shot-\(UUID().uuidString).png")
        _ = try run(["--screenshot=\(file.path)", "--window-size=1100,900", url])
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw Failure(description: "chromium wrote no screenshot of \(url)")
        }
        return file
    }

    /// How many pixels of `png` have the colour `rgb` (exactly), counted by a small PNG reader in Python's
    /// standard library.
    static func pixels(in png: URL, rgb: (Int, Int, Int)) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", countingScript, png.path, "\(rgb.0)", "\(rgb.1)", "\(rgb.2)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let count = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw Failure(description: "the PNG of \(png.path) could not be read") }
        return count
    }

    private static func run(_ arguments: [String]) throws -> (output: String, status: Int32) {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let log = profile.appendingPathExtension("log")
        defer { try? FileManager.default.removeItem(at: log) }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("dom-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--disable-extensions", "--user-data-dir=\(profile.path)",
            ] + arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline { usleep(50_000) }
        if process.isRunning {
            process.terminate()
            throw Failure(description: "chromium did not finish within 60 s")
        }
        return ((try? String(contentsOf: out, encoding: .utf8)) ?? "", process.terminationStatus)
    }

    private static let countingScript = """
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        target = tuple(int(v) for v in sys.argv[2:5])
        pos, chunks, header = 8, [], None
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR': header = struct.unpack('>IIBBBBB', body)
            if kind == b'IDAT': chunks.append(body)
            pos += 12 + length
        width, height, depth, colour = header[0], header[1], header[2], header[3]
        assert depth == 8 and colour in (2, 6) and header[6] == 0
        step = 3 if colour == 2 else 4
        raw, stride, previous, count, pos = zlib.decompress(b''.join(chunks)), width * step, None, 0, 0
        for _ in range(height):
            kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
            pos += 1 + stride
            prior = previous or bytearray(stride)
            for i in range(stride):
                left = line[i - step] if i >= step else 0
                up, corner = prior[i], (prior[i - step] if i >= step else 0)
                if kind == 1: line[i] = (line[i] + left) & 255
                elif kind == 2: line[i] = (line[i] + up) & 255
                elif kind == 3: line[i] = (line[i] + (left + up) // 2) & 255
                elif kind == 4:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
            previous = line
            count += sum(1 for x in range(0, stride, step) if tuple(line[x:x + 3]) == target)
        print(count)
        """
}
