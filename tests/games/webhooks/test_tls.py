"""An https destination is reached at the address that was checked, and TLS still checks
the certificate against the host's name (SNI and hostname verification on a pinned
connection): a server on loopback with a certificate from a test authority, trusted
through SSL_CERT_FILE, named `hooks.example`."""

import datetime
import socket
import ssl

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from games.webhooks.services import net

pytestmark = pytest.mark.slow  # starts an HTTPS server on loopback


def _name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _certificate(subject, issuer, key, signer, *, ca=False, dns=()):
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(_name(issuer))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(
                digital_signature=True, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=True,
                crl_sign=True, encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )  # fmt: skip
    if dns:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.DNSName(d) for d in dns]), critical=False
        )
    return builder.sign(signer, hashes.SHA256())


@pytest.fixture
def https_server(tmp_path, monkeypatch, serve):
    """A Slack-shaped https server for `hooks.example` on loopback, its authority trusted."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _certificate("Test CA", "Test CA", ca_key, ca_key, ca=True)
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = _certificate("hooks.example", "Test CA", key, ca_key, dns=("hooks.example",))
    pem = serialization.Encoding.PEM
    (tmp_path / "ca.pem").write_bytes(ca.public_bytes(pem))
    (tmp_path / "leaf.pem").write_bytes(leaf.public_bytes(pem))
    (tmp_path / "key.pem").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "leaf.pem", tmp_path / "key.pem")
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.pem"))
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in ("hooks.example", "other.example"):
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return serve("slack", tls=context)


def test_https_reaches_the_checked_address_with_the_certificate_checked_by_name(https_server):
    answer = net.request("POST", f"https://hooks.example:{https_server.port}/x", b"{}", {})
    assert answer.status == 200 and answer.body == b"ok"
    assert https_server.requests[0].headers["Host"] == f"hooks.example:{https_server.port}"


def test_a_certificate_for_another_name_is_refused(https_server):
    with pytest.raises(ssl.SSLCertVerificationError):
        net.request("POST", f"https://other.example:{https_server.port}/x", b"{}", {})
    assert https_server.requests == []
