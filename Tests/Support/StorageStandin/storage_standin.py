#!/usr/bin/env python3
"""The tests' stand-in for S3 and CloudFront: moto's S3 in process, behind the checks real S3 makes on SigV4
requests (moto makes none), and optionally a CloudFront distribution over the same bucket that checks
canned-policy signed URLs.

    storage_standin.py --access-key-id ID --secret-access-key SECRET --region REGION --bucket NAME --seed DIR
                       [--cdn-public-key PEMFILE --cdn-key-pair-id KID]

Prints `listening S3PORT CDNPORT` (CDNPORT 0 without a CDN) once both listen, then serves until killed.
Control endpoints on the S3 port: POST /_standin/clock?advance=SECONDS (both servers' clock), POST
/_standin/requests/clear, and GET /_standin/requests: a JSON list of {server ("s3"|"cdn"), method, path (as sent),
query (parameter names), headers (names, lower case), range, cookie, authorization, status}.
"""
import argparse
import base64
import binascii
import calendar
import hmac
import json
import logging
import mimetypes
import os
import re
import threading
import time
from urllib.parse import parse_qsl, quote, unquote
from xml.sax.saxutils import escape

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest, HTTPHeaders
from botocore.credentials import Credentials
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding
from moto.core import DEFAULT_ACCOUNT_ID
from moto.moto_server.werkzeug_app import create_backend_app
from moto.s3.models import s3_backends
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

QUERY_AUTH = ("X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders",
              "X-Amz-Signature")
HEADER_AUTH = re.compile(r"AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=(\S+)$")
CDN_PARAMS = ("Expires", "Signature", "Key-Pair-Id")
# S3 answers a signed GET or HEAD with these in place of the object's own headers; moto ignores them.
OVERRIDES = {f"response-{name.lower()}": name for name in ("Content-Type", "Content-Language", "Expires",
                                                          "Cache-Control", "Content-Disposition", "Content-Encoding")}


class Refusal(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self, content_type="application/xml"):
        body = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{self.code}</Code>'
                f"<Message>{escape(self.message)}</Message><RequestId>standin</RequestId></Error>")
        return Response(body, self.status, content_type=content_type)


def wire_target(environ):
    """The request target as sent: (path, query), both still percent-encoded."""
    # werkzeug's server reads the request line as Latin-1, then stores it UTF-8-encoded and read back as Latin-1.
    target = environ["RAW_URI"].encode("latin-1").decode("utf-8").encode("latin-1").decode("utf-8", "replace")
    path, _, query = target.partition("?")
    return path, query


def s3_path(raw_path):
    """The path as S3 reads it, and its SigV4 canonical form: S3 takes a literal '+' in the path for a space."""
    decoded = unquote(raw_path.replace("+", "%20"))
    return decoded, quote(decoded, safe="/~")


class Standin:
    def __init__(self, args, backend, cdn_key):
        self.args, self.backend, self.cdn_key = args, backend, cdn_key
        self.credentials = Credentials(args.access_key_id, args.secret_access_key)
        self.moto = create_backend_app("s3")
        self.lock = threading.Lock()
        self.clock_offset = 0.0
        self.requests = []

    def now(self):
        return time.time() + self.clock_offset

    def record(self, server, request, path, query):
        entry = {"server": server, "method": request.method, "path": path,
                 "query": [name for name, _ in parse_qsl(query, keep_blank_values=True)],
                 "headers": [name.lower() for name in request.headers.keys()],
                 "range": request.headers.get("Range"), "cookie": request.headers.get("Cookie"),
                 "authorization": request.headers.get("Authorization"), "status": None}
        with self.lock:
            self.requests.append(entry)
        return entry

    def s3_app(self, environ, start_response):
        request = Request(environ)
        path, query = wire_target(environ)
        if path.startswith("/_standin/"):
            return self.control(request, path)(environ, start_response)
        entry = self.record("s3", request, path, query)
        decoded, canonical = s3_path(path)
        params = parse_qsl(query, keep_blank_values=True)
        try:
            self.authenticate(request, canonical, params)
        except Refusal as refusal:
            entry["status"] = refusal.status
            return refusal.response()(environ, start_response)
        # Hand moto the object key S3 would read, since moto keeps a literal '+' in the path.
        environ["PATH_INFO"] = decoded.encode("utf-8").decode("latin-1")
        environ["RAW_URI"] = environ["REQUEST_URI"] = canonical + (f"?{query}" if query else "")
        # Header values go out as their UTF-8 bytes, as S3 sends them.
        overrides = {OVERRIDES[name]: value.encode().decode("latin-1") for name, value in params if name in OVERRIDES}
        replaced = {name.lower() for name in overrides}

        def recording_start_response(status, headers, exc_info=None):
            entry["status"] = int(status.split()[0])
            if entry["status"] in (200, 206):
                headers = [h for h in headers if h[0].lower() not in replaced] + list(overrides.items())
            return start_response(status, headers, exc_info)

        return self.moto(environ, recording_start_response)

    def authenticate(self, request, canonical_path, params):
        authorization = request.headers.get("Authorization")
        if {name for name, _ in params} & set(QUERY_AUTH):
            if authorization:
                raise Refusal(400, "InvalidArgument", "Only one auth mechanism allowed")
            self.check_query_auth(request, canonical_path, params)
        elif authorization:
            self.check_header_auth(request, canonical_path, params, authorization)
        else:
            raise Refusal(403, "AccessDenied", "Access Denied")

    def check_query_auth(self, request, canonical_path, params):
        query, error = dict(params), "AuthorizationQueryParametersError"
        if not all(name in query for name in QUERY_AUTH) or query["X-Amz-Algorithm"] != "AWS4-HMAC-SHA256":
            raise Refusal(400, error, "Query-string authentication version 4 requires the X-Amz-* parameters.")
        if not re.fullmatch("[0-9]+", query["X-Amz-Expires"]) or int(query["X-Amz-Expires"]) > 604800:
            raise Refusal(400, error, "X-Amz-Expires must be less than a week (in seconds) that is; 604800 seconds")
        signed_at = self.check_credential(query["X-Amz-Credential"], query["X-Amz-Date"], error)
        if self.now() > signed_at + int(query["X-Amz-Expires"]):
            raise Refusal(403, "AccessDenied", "Request has expired")
        self.check_signature(request, canonical_path, [p for p in params if p[0] != "X-Amz-Signature"],
                             query["X-Amz-Date"], query["X-Amz-SignedHeaders"], "UNSIGNED-PAYLOAD",
                             query["X-Amz-Signature"])

    def check_header_auth(self, request, canonical_path, params, authorization):
        match = HEADER_AUTH.match(authorization)
        if not match:
            raise Refusal(400, "AuthorizationHeaderMalformed", "The authorization header is malformed.")
        credential, signed_headers, signature = match.groups()
        timestamp = request.headers.get("X-Amz-Date", "")
        self.check_credential(credential, timestamp, "AuthorizationHeaderMalformed")
        # The body's hash is taken on trust, as the signature covers the header that carries it.
        self.check_signature(request, canonical_path, params, timestamp, signed_headers,
                             request.headers.get("X-Amz-Content-SHA256", ""), signature)

    def check_credential(self, credential, timestamp, error):
        """Checks the credential scope against the flags and answers the signing time."""
        try:
            signed_at = calendar.timegm(time.strptime(timestamp, "%Y%m%dT%H%M%SZ"))
        except ValueError:
            raise Refusal(400, error, "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"")
        parts = credential.split("/")
        if len(parts) != 5 or parts[1] != timestamp[:8] or parts[3:] != ["s3", "aws4_request"]:
            raise Refusal(400, error, f"Error parsing the X-Amz-Credential parameter: {credential}")
        if parts[0] != self.args.access_key_id:
            raise Refusal(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist.")
        if parts[2] != self.args.region:
            raise Refusal(400, error, f"The region '{parts[2]}' is wrong; expecting '{self.args.region}'")
        return signed_at

    def check_signature(self, request, canonical_path, params, timestamp, signed_headers, payload, signature):
        signer = S3SigV4Auth(self.credentials, "s3", self.args.region)
        context = AWSRequest()  # all the signer reads from a request here is its timestamp
        context.context["timestamp"] = timestamp
        headers = HTTPHeaders()
        for name in signed_headers.split(";"):
            headers[name] = request.headers.get(name, "")
        # A server's canonical request: the parameters decoded and re-encoded, as S3 does.
        canonical_request = "\n".join([request.method, canonical_path, signer._canonical_query_string_params(params),
                                       signer.canonical_headers(headers) + "\n", signed_headers, payload])
        expected = signer.signature(signer.string_to_sign(context, canonical_request), context)
        if not hmac.compare_digest(expected.encode(), signature.encode()):
            raise Refusal(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the "
                          "signature you provided.")

    def control(self, request, path):
        with self.lock:
            if path == "/_standin/clock" and request.method == "POST":
                self.clock_offset += float(request.args["advance"])
                return Response(status=204)
            if path == "/_standin/requests" and request.method == "GET":
                return Response(json.dumps(self.requests), content_type="application/json")
            if path == "/_standin/requests/clear" and request.method == "POST":
                self.requests.clear()
                return Response(status=204)
        return Response("no such control endpoint\n", 404, content_type="text/plain")

    def cdn_app(self, environ, start_response):
        request = Request(environ)
        path, query = wire_target(environ)
        entry = self.record("cdn", request, path, query)
        try:
            response = self.cdn_response(request, path, query)
        except Refusal as refusal:
            response = refusal.response("text/xml")
        entry["status"] = response.status_code
        return response(environ, start_response)

    def cdn_response(self, request, path, query):
        if request.method not in ("GET", "HEAD"):
            raise Refusal(403, "MethodNotAllowed", "This distribution only allows GET and HEAD")
        pairs = query.split("&") if query else []
        signed = {name: unquote(value) for name, _, value in (p.partition("=") for p in pairs) if name in CDN_PARAMS}
        if len(signed) != len(CDN_PARAMS):
            raise Refusal(403, "MissingKey", "Missing Expires, Signature or Key-Pair-Id query parameter")
        if signed["Key-Pair-Id"] != self.args.cdn_key_pair_id:
            raise Refusal(403, "AccessDenied", "Unknown Key-Pair-Id")
        if not re.fullmatch("[0-9]+", signed["Expires"]):
            raise Refusal(403, "AccessDenied", "Malformed Expires")
        # CloudFront signs the URL the viewer asked for, less its own three parameters, in a canned policy.
        kept = [p for p in pairs if p.partition("=")[0] not in CDN_PARAMS]
        resource = f"http://{request.host}{path}" + (f"?{'&'.join(kept)}" if kept else "")
        policy = json.dumps({"Statement": [{"Resource": resource, "Condition": {
            "DateLessThan": {"AWS:EpochTime": int(signed["Expires"])}}}]}, separators=(",", ":"))
        try:
            signature = base64.b64decode(signed["Signature"].translate(str.maketrans("-_~", "+=/")), validate=True)
            self.cdn_key.verify(signature, policy.encode(), padding.PKCS1v15(), hashes.SHA1())
        except (binascii.Error, InvalidSignature):
            raise Refusal(403, "AccessDenied", "Invalid signature")
        if self.now() >= int(signed["Expires"]):
            raise Refusal(403, "AccessDenied", "Request has expired")
        key = self.backend.get_object(self.args.bucket, s3_path(path)[0][1:])
        if key is None:
            raise Refusal(404, "NoSuchKey", "The specified key does not exist.")
        return ranged(request, key.value, {"Content-Type": key.metadata["Content-Type"], "ETag": key.etag,
                                           "Last-Modified": key.last_modified_RFC1123, "Accept-Ranges": "bytes"})


def ranged(request, body, headers):
    """The object's answer to one `bytes=` range (206 or 416), or whole (200) for anything else, as S3 does."""
    match = re.fullmatch(r"bytes=([0-9]*)-([0-9]*)", request.headers.get("Range", ""))
    first, last = match.groups() if match else ("", "")
    if not (first or last) or (first and last and int(last) < int(first)):
        return Response(body, 200, headers)
    size = len(body)
    if first:
        start, end = int(first), min(int(last) if last else size - 1, size - 1)
    else:
        start, end = max(size - int(last), 0), size - 1
    if start >= size or end < start:
        return Response(b"", 416, {**headers, "Content-Range": f"bytes */{size}"})
    return Response(body[start:end + 1], 206, {**headers, "Content-Range": f"bytes {start}-{end}/{size}"})


def seed(backend, bucket, region, folder):
    backend.create_bucket(bucket, region)
    for root, _, names in os.walk(folder):
        for path in (os.path.join(root, name) for name in names):
            if os.path.isfile(path):
                with open(path, "rb") as file:
                    key = backend.put_object(bucket, os.path.relpath(path, folder).replace(os.sep, "/"), file.read())
                # As `aws s3 cp` does; S3's own default otherwise.
                key.set_metadata({"Content-Type": mimetypes.guess_type(path)[0] or "binary/octet-stream"})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag in ("--access-key-id", "--secret-access-key", "--region", "--bucket", "--seed", "--cdn-public-key",
                 "--cdn-key-pair-id"):
        parser.add_argument(flag, required=not flag.startswith("--cdn"))
    args = parser.parse_args()
    if bool(args.cdn_public_key) != bool(args.cdn_key_pair_id):
        parser.error("--cdn-public-key and --cdn-key-pair-id go together")
    if not os.path.isdir(args.seed):
        parser.error(f"--seed {args.seed} is not a folder")
    logging.getLogger("werkzeug").setLevel(logging.ERROR)

    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    seed(backend, args.bucket, args.region, args.seed)
    cdn_key = None
    if args.cdn_public_key:
        with open(args.cdn_public_key, "rb") as pem:
            cdn_key = serialization.load_pem_public_key(pem.read())
    standin = Standin(args, backend, cdn_key)
    s3 = make_server("127.0.0.1", 0, standin.s3_app, threaded=True)
    cdn = make_server("127.0.0.1", 0, standin.cdn_app, threaded=True) if cdn_key else None
    if cdn:
        threading.Thread(target=cdn.serve_forever, daemon=True).start()
    print(f"listening {s3.port} {cdn.port if cdn else 0}", flush=True)
    s3.serve_forever()


if __name__ == "__main__":
    main()
