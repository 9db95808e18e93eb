// What a handler module sees besides this module's own API: requests, responses, errors and its config
// section (GatewayCore), and the JSON writer answers are written with. Nothing else of the project's.
@_exported import GatewayCore
@_exported import struct GatewayText.JSONWriter
