#!/usr/bin/env python3
"""The peer oracle for StoreGate's signed storage URLs: AWS's own Python SDK signing the same cases.

Reads a JSON list of cases on stdin and prints the JSON list of their URLs, in order, on stdout.

    {"kind": "s3", "at": UNIX_SECONDS, "region": R, "endpoint": URL (optional), "access_key_id": ID,
     "secret_access_key": SECRET, "session_token": TOKEN (optional), "addressing": "path"|"virtual",
     "bucket": B, "key": K, "method": "GET"|"HEAD", "content_disposition": CD (optional),
     "content_type": CT (optional), "expires": SECONDS}
        -> boto3's generate_presigned_url for get_object / head_object, signed at "at"
    {"kind": "s3-request", "at": UNIX_SECONDS, "region": R, "url": URL, "method": "GET"|"HEAD",
     "access_key_id": ID, "secret_access_key": SECRET, "session_token": TOKEN (optional)}
        -> botocore's S3SigV4Auth on that request, its body unsigned (payload_signing_enabled: false): the
           JSON object of the headers it adds
    {"kind": "cloudfront", "url": URL, "key_pair_id": KID, "private_key_pem": PEM (PKCS#1 or PKCS#8),
     "expires_at": UNIX_SECONDS}
        -> botocore's CloudFrontSigner canned-policy URL
"""
import json
import os
import sys
from datetime import datetime, timezone
from unittest import mock

import boto3
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials
from botocore.signers import CloudFrontSigner
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

OPERATIONS = {"GET": "get_object", "HEAD": "head_object"}

# The URLs must follow from the cases alone, not from the machine's AWS settings (endpoints, regional
# us-east-1, dual-stack, profiles).
for name in [name for name in os.environ if name.startswith("AWS_")]:
    del os.environ[name]
os.environ["AWS_CONFIG_FILE"] = os.environ["AWS_SHARED_CREDENTIALS_FILE"] = os.devnull


def s3_url(case):
    client = boto3.client(
        "s3", region_name=case["region"], endpoint_url=case.get("endpoint"),
        aws_access_key_id=case["access_key_id"], aws_secret_access_key=case["secret_access_key"],
        aws_session_token=case.get("session_token"),
        config=Config(signature_version="s3v4", s3={"addressing_style": case["addressing"]}))
    params = {"Bucket": case["bucket"], "Key": case["key"]}
    # An absent field and a null one mean the same: no such parameter.
    if case.get("content_disposition") is not None:
        params["ResponseContentDisposition"] = case["content_disposition"]
    if case.get("content_type") is not None:
        params["ResponseContentType"] = case["content_type"]
    # botocore reads the signing time from here alone, so fixing it fixes X-Amz-Date.
    at = datetime.fromtimestamp(case["at"], timezone.utc).replace(tzinfo=None)
    with mock.patch("botocore.auth.get_current_datetime", return_value=at):
        return client.generate_presigned_url(OPERATIONS[case["method"]], Params=params,
                                             ExpiresIn=case["expires"])


def s3_request_headers(case):
    request = AWSRequest(method=case["method"], url=case["url"])
    request.context["client_config"] = Config(s3={"payload_signing_enabled": False})
    credentials = Credentials(case["access_key_id"], case["secret_access_key"], case.get("session_token"))
    at = datetime.fromtimestamp(case["at"], timezone.utc).replace(tzinfo=None)
    with mock.patch("botocore.auth.get_current_datetime", return_value=at):
        S3SigV4Auth(credentials, "s3", case["region"]).add_auth(request)
    return dict(request.headers.items())


def cloudfront_url(case):
    private_key = serialization.load_pem_private_key(case["private_key_pem"].encode(), password=None)
    signer = CloudFrontSigner(case["key_pair_id"],
                              lambda message: private_key.sign(message, padding.PKCS1v15(), hashes.SHA1()))
    return signer.generate_presigned_url(case["url"],
                                         date_less_than=datetime.fromtimestamp(case["expires_at"], timezone.utc))


SIGNERS = {"s3": s3_url, "s3-request": s3_request_headers, "cloudfront": cloudfront_url}

json.dump([SIGNERS[case["kind"]](case) for case in json.load(sys.stdin)], sys.stdout)
sys.stdout.write("\n")
