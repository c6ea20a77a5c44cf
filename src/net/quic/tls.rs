//! Encryption and pinning: the host makes a self-signed certificate at start (rcgen); its
//! SHA-256 fingerprint travels in the join code; a joiner accepts only the certificate with
//! that fingerprint, and still checks the TLS 1.3 handshake signature made with its key. No
//! certificate authority is involved, yet nobody in the middle can pose as the host.
//!
//! Must not: accept a certificate whose fingerprint differs, whatever else it says.

use std::sync::Arc;
use std::time::Duration;

use rustls::DigitallySignedStruct;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};

use super::QuicError;

/// The ALPN protocol name both sides must speak.
pub const ALPN: &[u8] = b"ridgeline/1";

/// A QUIC connection with no traffic for this long is lost (keep-alives run every second).
/// Long enough that an outage of 8 s survives QUIC's backed-off probes (at a 400 ms round
/// trip the fourth probe goes ~11 s after the last packet came); longer ones end in a rejoin.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(20);

/// How long a joiner waits for the host's side of the QUIC handshake before it says "no
/// answer": an address where nothing listens is named as such well before the idle timeout,
/// while a slow lossy link (a 400 ms round trip, 15 % of datagrams lost) has the first flight
/// resent three times (after about 1, 3 and 7 s) before it gives up.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(8);

/// Bytes of datagrams QUIC may hold unsent (a few datagrams).
pub const DATAGRAM_QUEUE: usize = 8 * 1200;

/// The host's certificate and key, and the certificate's fingerprint.
pub struct Identity {
    cert: CertificateDer<'static>,
    key: PrivatePkcs8KeyDer<'static>,
    /// SHA-256 of the certificate (DER).
    pub fingerprint: [u8; 32],
}

/// SHA-256 of a certificate's DER bytes.
pub fn fingerprint(cert: &[u8]) -> [u8; 32] {
    let d = ring::digest::digest(&ring::digest::SHA256, cert);
    let mut out = [0u8; 32];
    out.copy_from_slice(d.as_ref());
    out
}

/// A fresh self-signed certificate for this hosting.
pub fn identity() -> Result<Identity, QuicError> {
    let made = rcgen::generate_simple_self_signed(vec!["ridgeline".to_string()])?;
    let cert = made.cert.der().clone();
    let key = PrivatePkcs8KeyDer::from(made.signing_key.serialize_der());
    Ok(Identity { fingerprint: fingerprint(&cert), cert, key })
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn transport() -> Arc<quinn::TransportConfig> {
    let mut t = quinn::TransportConfig::default();
    t.keep_alive_interval(Some(Duration::from_secs(1)));
    t.max_idle_timeout(quinn::IdleTimeout::try_from(IDLE_TIMEOUT).ok());
    // Packets stay at QUIC's 1,200-byte floor, so a relay's header still fits any path.
    t.mtu_discovery_config(None);
    // Lockstep datagrams: a loss that is not congestion must not shrink the window to nothing,
    // and what QUIC cannot send at once waits in the game's channel (which always sends the
    // newest), not in a queue of stale datagrams.
    t.congestion_controller_factory(Arc::new(super::congestion::FlooredCubic::default()));
    t.datagram_send_buffer_size(DATAGRAM_QUEUE);
    Arc::new(t)
}

/// The host's QUIC configuration.
pub fn server_config(id: &Identity) -> Result<quinn::ServerConfig, QuicError> {
    let mut crypto = rustls::ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_no_client_auth()
        .with_single_cert(vec![id.cert.clone()], PrivateKeyDer::Pkcs8(id.key.clone_key()))?;
    crypto.alpn_protocols = vec![ALPN.to_vec()];
    let quic = quinn::crypto::rustls::QuicServerConfig::try_from(crypto)?;
    let mut config = quinn::ServerConfig::with_crypto(Arc::new(quic));
    config.transport_config(transport());
    Ok(config)
}

/// A joiner's QUIC configuration, accepting only the certificate with `fingerprint`.
pub fn client_config(fingerprint: [u8; 32]) -> Result<quinn::ClientConfig, QuicError> {
    let provider = provider();
    let verifier = Arc::new(Pinned { fingerprint, algorithms: provider.signature_verification_algorithms });
    let mut crypto = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    crypto.alpn_protocols = vec![ALPN.to_vec()];
    let quic = quinn::crypto::rustls::QuicClientConfig::try_from(crypto)?;
    let mut config = quinn::ClientConfig::new(Arc::new(quic));
    config.transport_config(transport());
    Ok(config)
}

/// Accepts exactly one certificate, by fingerprint.
#[derive(Debug)]
struct Pinned {
    fingerprint: [u8; 32],
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if fingerprint(end_entity) == self.fingerprint {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General("the host's certificate is not the one in the join code".into()))
        }
    }

    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        // Only TLS 1.3 is offered.
        Err(rustls::Error::General("TLS 1.2 is not spoken".into()))
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}
