// What a handler module sees besides this module's own API: requests, responses, errors and its config
// section (GatewayCore), and the JSON writer answers are written with. Nothing else of the project's.
@_exported import GatewayCore
// The logger a handler is handed is swift-log's, so its methods come with the API.
@_exported import Logging

@_exported import struct GatewayText.JSONWriter
