//! SHA-256 of files, streamed.

use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::error::DataError;

/// The lowercase hex SHA-256 of the file at `path`.
pub fn sha256_file(path: &Path) -> Result<String, DataError> {
    let mut file = std::fs::File::open(path).map_err(DataError::io(path))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer).map_err(DataError::io(path))?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hex::encode(hasher.finalize()))
}
