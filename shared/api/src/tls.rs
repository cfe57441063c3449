//! The roots the functions trust for RDS Proxy's TLS certificate, compiled in.
//!
//! RDS Proxy presents a certificate from AWS Certificate Manager, not one of the RDS CAs (the
//! RDS "global bundle" signs the database instances' own certificates, which the functions never
//! see: they reach only the proxy). ACM certificates chain to Amazon Trust Services: Amazon Root
//! CA 1–4 and, cross-signing them, Starfield Services Root Certificate Authority - G2. The file
//! `certs/amazon-trust-services.pem` holds those five, as Debian's `ca-certificates` package
//! (Mozilla's root store) ships them; a test pins each by its SHA-256 fingerprint, so a changed
//! or added certificate fails the build's tests until someone checks it and updates the pins.
//! The connection checks the chain and that the certificate names the proxy's endpoint
//! (`verify-full`). Without the proxy (Profile small) the cluster's own certificate is verified
//! against the RDS authorities of `infra/certs/rds-ca.pem.gz`, which the lexicon layer carries
//! (`DB_CA_FILE`); a test here holds that file to its digest.

use base64::Engine;

/// The five root certificates, PEM.
pub const PROXY_ROOTS_PEM: &[u8] = include_bytes!("../certs/amazon-trust-services.pem");

/// Their SHA-256 fingerprints (of the DER), in the file's order: Amazon Root CA 1, 2, 3, 4 and
/// Starfield Services Root Certificate Authority - G2.
pub const PROXY_ROOT_FINGERPRINTS: [&str; 5] = [
    "8ecde6884f3d87b1125ba31ac3fcb13d7016de7f57cc904fe1cb97c6ae98196e",
    "1ba5b2aa8c65401a82960118f80bec4f62304d83cec4713a19c39c011ea46db4",
    "18ce6cfe7bf14e60b2e347b8dfe868cb31d02ebb3ada271569f50343b46db3a4",
    "e35d28419ed02025cfa69038cd623962458da5c695fbdea3c22b0bfb25897092",
    "568d6905a2c88708a4b3025190edcfedb1974a606a13c6e5290fcb2ae63edab5",
];

/// The DER of each certificate in a PEM text (the base64 between each BEGIN and END
/// CERTIFICATE line), or `None` if a block does not decode.
pub fn pem_certificates(pem: &[u8]) -> Option<Vec<Vec<u8>>> {
    let text = std::str::from_utf8(pem).ok()?;
    let mut out = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines().map(str::trim) {
        match (line, block.as_mut()) {
            ("-----BEGIN CERTIFICATE-----", None) => block = Some(String::new()),
            ("-----END CERTIFICATE-----", Some(b64)) => {
                out.push(base64::engine::general_purpose::STANDARD.decode(b64.as_bytes()).ok()?);
                block = None;
            }
            (line, Some(b64)) => b64.push_str(line),
            _ => {}
        }
    }
    block.is_none().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn the_compiled_in_roots_are_exactly_the_pinned_five() {
        let certs = pem_certificates(PROXY_ROOTS_PEM).expect("the bundle decodes");
        let fingerprints: Vec<String> = certs.iter().map(|der| hex(&Sha256::digest(der))).collect();
        assert_eq!(fingerprints, PROXY_ROOT_FINGERPRINTS);
    }

    /// The RDS authorities the layer carries for Profile small: the file infra/certs/SOURCE.md
    /// names (its digest), every certificate decoding, us-east-1's roots among them.
    #[test]
    fn the_rds_authorities_are_the_recorded_bundle_with_the_regions_roots() {
        use std::io::Read;
        let gz = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../infra/certs/rds-ca.pem.gz")).unwrap();
        let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../infra/certs/SOURCE.md")).unwrap();
        assert!(source.contains(&hex(&Sha256::digest(&gz))), "infra/certs/SOURCE.md names another file: rebuild it or the note");
        let mut pem = Vec::new();
        flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut pem).unwrap();
        let certs = pem_certificates(&pem).expect("the bundle decodes");
        assert_eq!(certs.len(), 120);
        for root in
            ["Amazon RDS us-east-1 Root CA RSA2048 G1", "Amazon RDS us-east-1 Root CA RSA4096 G1", "Amazon RDS us-east-1 Root CA ECC384 G1"]
        {
            assert!(certs.iter().any(|der| der.windows(root.len()).any(|w| w == root.as_bytes())), "{root}");
        }
    }

    #[test]
    fn a_broken_bundle_is_refused() {
        assert_eq!(pem_certificates(b"-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n"), None);
        assert_eq!(pem_certificates(b"-----BEGIN CERTIFICATE-----\nAAAA\n"), None, "unterminated");
        assert_eq!(pem_certificates(b"no certificate here"), Some(vec![]));
    }
}
