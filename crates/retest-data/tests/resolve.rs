//! Resolution of source files: explicit path, mirror, cache, download; checksums and the lock.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};

use retest_data::{DataError, LockFile, Origin, Resolver};
use retest_spec::CorpusRecipe;

const HELLO_SHA: &str = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"; // sha256("hello\n")

struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["corpora", "mirror/deep", "cache"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        Setup { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn recipe(&self, source: &str) -> CorpusRecipe {
        let text = format!("name: demo\nreader: {{format: wikitext}}\nsources:\n  - {source}\n");
        let file = self.path("corpora/demo.yaml");
        std::fs::write(&file, &text).unwrap();
        CorpusRecipe::load(&file).unwrap()
    }

    /// What a resolver says when the file `file` (relative to the setup) has the checksum
    /// `found` and the lock recorded `recorded` for it: the lock and the refresh command.
    fn recorded_mismatch(&self, file: &str, recorded: &str, found: &str) -> String {
        format!(
            "{}: checksum mismatch: expected sha256 {recorded} (recorded in {} when the file was \
             first used), found {found}: if the file changed on purpose, run `retest lock --refresh {}`",
            self.path(file).display(),
            self.lock().display(),
            self.path("corpora/demo.yaml").display()
        )
    }

    /// The checksum lock beside the recipes.
    fn lock(&self) -> PathBuf {
        self.path("corpora/checksums.lock")
    }

    /// `a.txt` (`hello`) in the mirror, its recipe, and a resolver that has resolved it.
    fn resolved_from_mirror(&self) -> (CorpusRecipe, Resolver) {
        std::fs::write(self.path("mirror/a.txt"), "hello\n").unwrap();
        let recipe = self.recipe("{file: a.txt}");
        let mut resolver = self.resolver(true);
        resolver.resolve_all(&recipe).unwrap();
        (recipe, resolver)
    }

    fn resolver(&self, mirror: bool) -> Resolver {
        Resolver::new(
            mirror.then(|| self.path("mirror")),
            self.path("cache"),
            LockFile::load(&self.lock()).unwrap(),
            false,
        )
    }
}

#[test]
fn explicit_path_is_used_and_verified() {
    let s = Setup::new();
    std::fs::write(s.path("corpora/local.txt"), "hello\n").unwrap();
    let recipe = s.recipe(&format!("{{file: a.txt, path: local.txt, sha256: {HELLO_SHA}}}"));
    let found = s.resolver(true).resolve_all(&recipe).unwrap();
    assert_eq!(found[0].origin, Origin::ExplicitPath);
    assert_eq!(found[0].path, s.path("corpora/local.txt"));
}

#[test]
fn mirror_is_searched_recursively_by_name() {
    let s = Setup::new();
    std::fs::write(s.path("mirror/deep/a.txt"), "hello\n").unwrap();
    let recipe = s.recipe(&format!("{{file: a.txt, sha256: {HELLO_SHA}}}"));
    let found = s.resolver(true).resolve_all(&recipe).unwrap();
    assert_eq!(
        (found[0].origin, found[0].sha256.as_str()),
        (Origin::Mirror, HELLO_SHA)
    );
}

#[test]
fn checksum_mismatch_names_both_hashes() {
    let s = Setup::new();
    std::fs::write(s.path("mirror/deep/a.txt"), "hello!\n").unwrap();
    let want = "0".repeat(64);
    let recipe = s.recipe(&format!("{{file: a.txt, sha256: '{want}'}}"));
    let error = s.resolver(true).resolve_all(&recipe).unwrap_err();
    let found = retest_data::sha256_file(&s.path("mirror/deep/a.txt")).unwrap();
    assert_eq!(
        error.to_string(),
        format!(
            "{}: checksum mismatch: expected sha256 {want}, found {found}",
            s.path("mirror/deep/a.txt").display()
        )
    );
}

#[test]
fn missing_file_says_where_it_looked_and_how_to_provide_it() {
    let s = Setup::new();
    let recipe = s.recipe("{file: absent.txt}");
    let error = s.resolver(true).resolve_all(&recipe).unwrap_err();
    assert!(matches!(error, DataError::NotFound { .. }));
    let expected = format!(
        "corpus `demo`: file `absent.txt` not found.\n  looked in:\n\
         \x20   - explicit path: none given (`path` in the recipe)\n\
         \x20   - mirror folder {}: no file named `absent.txt`\n\
         \x20   - download cache {}: not there yet\n\
         \x20   - download: the recipe gives no `url`\n\
         \x20 to provide it, put `absent.txt` in a folder named by RETEST_DATA_DIR, or set `path:` for it in {}",
        s.path("mirror").display(),
        s.path("cache/demo/absent.txt").display(),
        s.path("corpora/demo.yaml").display()
    );
    assert_eq!(error.to_string(), expected);
}

#[test]
fn missing_explicit_path_is_reported() {
    let s = Setup::new();
    let recipe = s.recipe("{file: a.txt, path: nowhere/a.txt}");
    let message = s.resolver(false).resolve_all(&recipe).unwrap_err().to_string();
    assert!(
        message.contains(&format!(
            "explicit path {} (the recipe's `path`): no such file",
            s.path("corpora/nowhere/a.txt").display()
        )),
        "{message}"
    );
}

#[test]
fn unknown_checksum_is_recorded_when_asked_then_verified() {
    let s = Setup::new();
    let lock = s.lock();
    let (recipe, mut resolver) = s.resolved_from_mirror();
    assert!(!lock.exists(), "resolving alone records nothing");
    resolver.record_learnt("other").unwrap();
    assert!(
        !lock.exists(),
        "another owner's record leaves demo's checksum unrecorded"
    );
    resolver.record_learnt("demo").unwrap();
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        format!(
            "# SHA-256 of files whose recipe or declaration names none, recorded on first use (retest).\n\
             {HELLO_SHA}  demo/a.txt\n"
        )
    );
    // The mirror's copy changes: the lock now catches it, and the message says where the
    // expected checksum comes from and how to accept the new file.
    std::fs::write(s.path("mirror/a.txt"), "changed\n").unwrap();
    let error = s.resolver(true).resolve_all(&recipe).unwrap_err();
    let found = retest_data::sha256_file(&s.path("mirror/a.txt")).unwrap();
    assert_eq!(
        error.to_string(),
        s.recorded_mismatch("mirror/a.txt", HELLO_SHA, &found)
    );
    // Done as the message says, the new file is accepted and recorded.
    std::fs::write(&lock, "").unwrap();
    let mut resolver = s.resolver(true);
    assert_eq!(resolver.resolve_all(&recipe).unwrap()[0].sha256, found);
    resolver.record_learnt("demo").unwrap();
    assert!(
        std::fs::read_to_string(&lock)
            .unwrap()
            .ends_with(&format!("{found}  demo/a.txt\n")),
        "the new checksum is recorded"
    );
}

/// A recorded checksum checks an explicit path and the download cache the same way.
#[test]
fn recorded_checksum_mismatch_of_a_local_copy_names_the_lock_file() {
    let s = Setup::new();
    let lock = s.lock();
    let recorded = "a".repeat(64);
    std::fs::write(&lock, format!("{recorded}  demo/a.txt\n")).unwrap();
    std::fs::write(s.path("corpora/local.txt"), "hello\n").unwrap();
    let recipe = s.recipe("{file: a.txt, path: local.txt}");
    let error = s.resolver(false).resolve_all(&recipe).unwrap_err();
    assert_eq!(
        error.to_string(),
        s.recorded_mismatch("corpora/local.txt", &recorded, HELLO_SHA)
    );
    std::fs::create_dir_all(s.path("cache/demo")).unwrap();
    std::fs::write(s.path("cache/demo/b.txt"), "hello\n").unwrap();
    std::fs::write(&lock, format!("{recorded}  demo/b.txt\n")).unwrap();
    let recipe = s.recipe("{file: b.txt}");
    let error = s.resolver(false).resolve_all(&recipe).unwrap_err();
    assert_eq!(
        error.to_string(),
        s.recorded_mismatch("cache/demo/b.txt", &recorded, HELLO_SHA)
    );
}

/// Recording reads the lock file again, so an entry another process wrote since is kept.
#[test]
fn recording_keeps_entries_written_meanwhile() {
    let s = Setup::new();
    let lock = s.lock();
    let (_, mut resolver) = s.resolved_from_mirror();
    let other = "b".repeat(64);
    std::fs::write(&lock, format!("{other}  other/x.txt\n")).unwrap();
    resolver.record_learnt("demo").unwrap();
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        format!(
            "# SHA-256 of files whose recipe or declaration names none, recorded on first use (retest).\n\
             {HELLO_SHA}  demo/a.txt\n{other}  other/x.txt\n"
        )
    );
}

#[test]
fn malformed_lock_file_names_its_line() {
    let s = Setup::new();
    let path = s.lock();
    std::fs::write(&path, "# comment\nnot-a-hash  demo/a.txt\n").unwrap();
    let error = LockFile::load(&path).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "{}:2: expected a 64-digit hex SHA-256 at the start of the line",
            path.display()
        )
    );
}

/// Serves `body` once over HTTP on a loopback port; returns the URL.
fn serve_once(body: &'static [u8]) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/a.txt", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut request = [0u8; 4096];
        let _ = stream.read(&mut request);
        let header = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        stream.write_all(header.as_bytes()).unwrap();
        stream.write_all(body).unwrap();
    });
    url
}

#[test]
fn download_goes_to_the_cache_and_is_verified() {
    let s = Setup::new();
    let url = serve_once(b"hello\n");
    let recipe = s.recipe(&format!("{{file: a.txt, url: '{url}', sha256: {HELLO_SHA}}}"));
    let found = s.resolver(false).resolve_all(&recipe).unwrap();
    assert_eq!(found[0].origin, Origin::Download);
    assert_eq!(std::fs::read(s.path("cache/demo/a.txt")).unwrap(), b"hello\n");
    // The second resolution finds it in the cache without the network.
    let again = s.resolver(false).resolve_all(&recipe).unwrap();
    assert_eq!(again[0].origin, Origin::Cache);
}

#[test]
fn downloaded_file_with_wrong_checksum_is_rejected() {
    let s = Setup::new();
    let url = serve_once(b"tampered\n");
    let recipe = s.recipe(&format!("{{file: a.txt, url: '{url}', sha256: {HELLO_SHA}}}"));
    let error = s.resolver(false).resolve_all(&recipe).unwrap_err().to_string();
    assert!(
        error.contains(&format!("checksum mismatch: expected sha256 {HELLO_SHA}")),
        "{error}"
    );
    assert!(
        !Path::new(&s.path("cache/demo/a.txt")).exists(),
        "a rejected download is not left in the cache"
    );
}

#[test]
fn failed_download_names_the_url() {
    let s = Setup::new();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/a.txt", listener.local_addr().unwrap());
    drop(listener); // nothing listens there any more
    let recipe = s.recipe(&format!("{{file: a.txt, url: '{url}'}}"));
    let error = s.resolver(false).resolve_all(&recipe).unwrap_err().to_string();
    assert!(
        error.starts_with(&format!("corpus `demo`: downloading {url} failed: ")),
        "{error}"
    );
}

#[test]
fn offline_resolver_does_not_download() {
    let s = Setup::new();
    let recipe = s.recipe("{file: a.txt, url: 'http://127.0.0.1:9/a.txt'}");
    let mut resolver = s.resolver(false);
    resolver.offline = true;
    let message = resolver.resolve_all(&recipe).unwrap_err().to_string();
    assert!(
        message.contains("    - download: disabled (RETEST_OFFLINE is set)\n"),
        "{message}"
    );
}
