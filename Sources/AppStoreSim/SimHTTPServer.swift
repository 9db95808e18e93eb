import NIOCore
import NIOHTTP1
import NIOPosix

/// The stand-in's HTTP/1.1 server (keep-alive, as Apple's is), bound to a loopback address.
public final class SimHTTPServer: Sendable {
    /// The port it listens on (useful when asked for port 0).
    public let port: Int
    /// Keeps answers back while a test looks at what waits for them.
    public let hold: SimHold
    private let channel: any Channel

    /// Starts serving `simulator`, and `serverAPI` and `googlePlay` when given, on `host`:`port` (0 picks a
    /// free port).
    public init(
        simulator: AppStoreSimulator, serverAPI: SimServerAPI? = nil, googlePlay: SimGooglePlay? = nil,
        host: String = "127.0.0.1", port: Int = 0
    ) throws {
        let hold = SimHold()
        self.hold = hold
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(
                        SimRequestHandler(
                            simulator: simulator, serverAPI: serverAPI, googlePlay: googlePlay, hold: hold))
                }
            }
        channel = try bootstrap.bind(host: host, port: port).wait()
        self.port = channel.localAddress?.port ?? port
    }

    /// Stops listening; open connections finish on their own.
    public func close() {
        try? channel.close().wait()
    }
}

/// Collects one request and writes the simulator's answer, after its delay.
private final class SimRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let simulator: AppStoreSimulator
    private let serverAPI: SimServerAPI?
    private let googlePlay: SimGooglePlay?
    private let hold: SimHold
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(simulator: AppStoreSimulator, serverAPI: SimServerAPI?, googlePlay: SimGooglePlay?, hold: SimHold) {
        self.simulator = simulator
        self.serverAPI = serverAPI
        self.googlePlay = googlePlay
        self.hold = hold
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let buffer):
            body += buffer.readableBytesView
        case .end:
            guard let head else { return }
            let method = head.method.rawValue
            let authorization = head.headers.first(name: "Authorization")
            let answer =
                googlePlay?.answer(method: method, path: head.uri, authorization: authorization, body: body)
                ?? serverAPI?.answer(
                    method: method, path: head.uri, authorization: authorization, body: body
                )
                ?? simulator.answer(method: method, path: head.uri, body: body)
            let keepAlive = head.isKeepAlive
            let send = { [self] in write(answer, keepAlive: keepAlive, version: head.version, context: context) }
            let deliver = {
                if answer.delayMs > 0 {
                    context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(answer.delayMs)), send)
                } else {
                    send()
                }
            }
            hold.run(on: context.eventLoop, NIOLoopBound(deliver, eventLoop: context.eventLoop))
        }
    }

    private func write(
        _ answer: AppStoreSimulator.Answer, keepAlive: Bool, version: HTTPVersion, context: ChannelHandlerContext
    ) {
        guard !answer.reset else {
            context.close(promise: nil)
            return
        }
        var headers = HTTPHeaders()
        headers.add(
            name: "Content-Type",
            value: [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(answer.body.first ?? 0)
                ? "application/json" : "text/plain")
        headers.add(name: "Content-Length", value: String(answer.body.count))
        for (name, value) in answer.headers { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(
            version: version, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        guard !answer.truncated else {
            let half = ByteBuffer(bytes: answer.body.prefix(answer.body.count / 2))
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(half)))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
            return
        }
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer.body)))), promise: nil)
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive { done.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
    }
}
