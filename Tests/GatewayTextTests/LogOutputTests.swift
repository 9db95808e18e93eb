import Foundation
import Testing

@testable import GatewayText

@Suite struct LogOutputTests {
    /// A log file, and an output writing to it.
    final class LogFile: Sendable {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-output-\(UUID()).log").path
        let descriptor: Int32
        let output: LogOutput

        init() {
            descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            output = LogOutput(descriptor: descriptor)
        }

        deinit {
            output.gather(every: nil)
            close(descriptor)
            unlink(path)
        }

        var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

        func write(_ text: String, gathered: Bool) {
            Array(text.utf8).withUnsafeBufferPointer { output.write($0, gathered: gathered) }
        }
    }

    @Test func withoutGatheringEachLineIsWrittenAtOnce() {
        let file = LogFile()
        file.write("one\n", gathered: true)
        #expect(file.text == "one\n")
        file.write("two\n", gathered: false)
        #expect(file.text == "one\ntwo\n")
    }

    @Test func aGatheredLineWaitsAndAnyOtherLineTakesItAlongFirst() {
        let file = LogFile()
        file.output.gather(every: .seconds(30))
        file.write("msg=request 1\n", gathered: true)
        file.write("msg=request 2\n", gathered: true)
        #expect(file.text == "")
        file.write("level=warning\n", gathered: false)
        #expect(file.text == "msg=request 1\nmsg=request 2\nlevel=warning\n")
    }

    @Test func gatheredLinesAreWrittenAfterTheInterval() {
        let file = LogFile()
        file.output.gather(every: .milliseconds(20))
        file.write("msg=request 1\n", gathered: true)
        file.write("msg=request 2\n", gathered: true)
        let started = ContinuousClock.now
        var arrived = false
        while !arrived, ContinuousClock.now - started < .seconds(5) {
            arrived = file.text == "msg=request 1\nmsg=request 2\n"
            if !arrived { usleep(1000) }
        }
        #expect(arrived, "\(file.text)")
        // Idle again: the next line is gathered and written on its own too.
        file.write("msg=request 3\n", gathered: true)
        while file.text.count < 42, ContinuousClock.now - started < .seconds(10) { usleep(1000) }
        #expect(file.text == "msg=request 1\nmsg=request 2\nmsg=request 3\n")
    }

    @Test func stoppingGatheringWritesWhatWasGathered() {
        let file = LogFile()
        file.output.gather(every: .seconds(30))
        file.write("msg=request 1\n", gathered: true)
        file.output.gather(every: nil)
        #expect(file.text == "msg=request 1\n")
        file.write("msg=request 2\n", gathered: true)
        #expect(file.text == "msg=request 1\nmsg=request 2\n")
    }

    @Test func aFullBatchIsWrittenWithoutWaiting() {
        let file = LogFile()
        file.output.gather(every: .seconds(30))
        let line = String(repeating: "x", count: 1023) + "\n"
        let fitting = LogOutput.batchLimit / line.utf8.count
        for _ in 0..<fitting { file.write(line, gathered: true) }
        #expect(file.text.isEmpty)
        file.write(line, gathered: true)
        #expect(file.text.utf8.count == LogOutput.batchLimit)
        let long = String(repeating: "y", count: LogOutput.batchLimit) + "\n"
        file.write(long, gathered: true)
        #expect(file.text.utf8.count == LogOutput.batchLimit + line.utf8.count + long.utf8.count)
    }

    /// Eight threads gathering 2,000 lines each: every line arrives whole, each thread's in its order.
    @Test func linesFromManyThreadsArriveWholeAndInOrder() {
        let file = LogFile()
        file.output.gather(every: .milliseconds(1))
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for number in 0..<2000 {
                file.write("ts=x level=info msg=request thread=\(thread) n=\(number)\n", gathered: number % 100 != 99)
            }
        }
        file.output.gather(every: nil)
        let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 16_000)
        var next = [Int](repeating: 0, count: 8)
        for line in lines {
            let fields = line.split(separator: " ")
            guard fields.count == 5, let thread = Int(fields[3].dropFirst(7)), let number = Int(fields[4].dropFirst(2)),
                (0..<8).contains(thread)
            else {
                Issue.record("a broken line: \(line)")
                return
            }
            #expect(number == next[thread], "thread \(thread): \(number) after \(next[thread] - 1)")
            next[thread] = number + 1
        }
    }
}
