//! Finding data files (explicit path, mirror folder, download cache) by checksum, and preparing corpora.
