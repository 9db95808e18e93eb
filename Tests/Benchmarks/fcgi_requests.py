#!/usr/bin/env python3
"""Sends COUNT FastCGI requests for PATH to the unix socket SOCKET, one connection each, with the params nginx's
fastcgi_params passes for a plain GET, and checks each answer is a 200 (or 304 with --if-none-match).
Usage: fcgi_requests.py SOCKET PATH COUNT, or fcgi_requests.py SOCKET PATH --body to print one answer's body."""
import socket
import struct
import sys

BEGIN, END, PARAMS, STDIN, STDOUT = 1, 3, 4, 5, 6


def record(kind, content, request_id=1):
    return struct.pack("!BBHHBx", 1, kind, request_id, len(content), 0) + content


def pair(name, value):
    name, value = name.encode(), value.encode()
    lengths = b"".join(bytes([len(x)]) if len(x) < 128 else struct.pack("!I", len(x) | 0x80000000) for x in (name, value))
    return lengths + name + value


def params(path):
    return {
        "QUERY_STRING": "", "REQUEST_METHOD": "GET", "CONTENT_TYPE": "", "CONTENT_LENGTH": "",
        "SCRIPT_NAME": path, "REQUEST_URI": path, "DOCUMENT_URI": path, "DOCUMENT_ROOT": "/usr/share/nginx/html",
        "SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_SCHEME": "http", "GATEWAY_INTERFACE": "CGI/1.1",
        "SERVER_SOFTWARE": "nginx/1.22.1", "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "51234",
        "SERVER_ADDR": "127.0.0.1", "SERVER_PORT": "8080", "SERVER_NAME": "localhost", "REDIRECT_STATUS": "200",
        "HTTP_HOST": "127.0.0.1:8080", "HTTP_USER_AGENT": "curl/7.88.1", "HTTP_ACCEPT": "*/*",
    }


def request(sock_path, message):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(sock_path)
        connection.sendall(message)
        answer = b""
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
    stdout = b""
    offset = 0
    while offset + 8 <= len(answer):
        _, kind, _, length, padding = struct.unpack("!BBHHBx", answer[offset:offset + 8])
        if kind == STDOUT:
            stdout += answer[offset + 8:offset + 8 + length]
        offset += 8 + length + padding
    return stdout


def main():
    sock_path, path = sys.argv[1], sys.argv[2]
    body = b"".join(pair(name, value) for name, value in params(path).items())
    message = (record(BEGIN, struct.pack("!HB5x", 1, 0)) + record(PARAMS, body) + record(PARAMS, b"")
               + record(STDIN, b""))
    if sys.argv[3] == "--body":
        sys.stdout.buffer.write(request(sock_path, message).split(b"\r\n\r\n", 1)[1])
        return
    for _ in range(int(sys.argv[3])):
        head = request(sock_path, message)[:40]
        if not (head.startswith(b"Status: 200") or head.startswith(b"Content-Type")):
            sys.exit(f"unexpected answer: {head!r}")


if __name__ == "__main__":
    main()
