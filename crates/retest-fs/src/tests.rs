//! Writes, replacements, failures: the final file is whole or absent, and no temporary is left.

use super::*;

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[derive(Debug)]
enum TestError {
    Fs(WriteError),
    Refused,
}

impl From<WriteError> for TestError {
    fn from(e: WriteError) -> TestError {
        TestError::Fs(e)
    }
}

#[test]
fn writes_a_new_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.csv");
    write_atomic(&path, b"a,b\n1,2\n").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"a,b\n1,2\n");
    assert_eq!(names(dir.path()), ["table.csv"]);
}

#[test]
fn replaces_an_existing_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.md");
    std::fs::write(&path, "a longer old content\n").unwrap();
    write_atomic_with(&path, |w| {
        w.write_all(b"new ").map_err(WriteError::at(&path))?;
        w.write_all(b"text").map_err(WriteError::at(&path))?;
        Ok::<(), TestError>(())
    })
    .unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "new text");
    assert_eq!(names(dir.path()), ["report.md"]);
}

#[test]
fn a_failing_writer_leaves_the_old_file_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seed-01.fifu");
    std::fs::write(&path, "old").unwrap();
    let result = write_atomic_with(&path, |w| {
        w.write_all(&[7u8; 3 << 20]).map_err(WriteError::at(&path))?;
        Err(TestError::Refused)
    });
    assert!(matches!(result, Err(TestError::Refused)), "{result:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    assert_eq!(names(dir.path()), ["seed-01.fifu"]);
}

#[test]
fn a_failing_rename_names_the_final_path_and_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    // A non-empty folder cannot be replaced by a file.
    let path = dir.path().join("stats.json");
    std::fs::create_dir(&path).unwrap();
    std::fs::write(path.join("inside"), "x").unwrap();
    let error = write_atomic(&path, b"{}").unwrap_err();
    assert_eq!(error.to_string(), format!("cannot write {}", path.display()));
    assert_eq!(error.source.kind(), ErrorKind::IsADirectory);
    assert_eq!(names(dir.path()), ["stats.json"]);
}

#[test]
fn a_missing_folder_is_an_error_naming_the_final_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing").join("vocab.tsv");
    let error = write_atomic(&path, b"x").unwrap_err();
    assert_eq!(error.to_string(), format!("cannot write {}", path.display()));
    assert_eq!(error.source.kind(), ErrorKind::NotFound);
    match write_atomic_with(&path, |_| Ok::<(), TestError>(())) {
        Err(TestError::Fs(e)) => assert_eq!(e.path, path),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_path_without_a_file_name_is_refused() {
    let error = write_atomic(Path::new("/"), b"x").unwrap_err();
    assert_eq!(error.to_string(), "cannot write /");
    assert_eq!(error.source.to_string(), "the path names no file");
}

#[cfg(unix)]
#[test]
fn the_file_is_not_private_to_its_owner() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("checksums.lock");
    write_atomic(&path, b"x").unwrap();
    std::fs::write(dir.path().join("plain"), b"x").unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), mode(&dir.path().join("plain")));
}

#[cfg(unix)]
#[test]
fn a_published_folder_has_the_mode_of_a_new_folder() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().unwrap();
    let tmp = tempfile::Builder::new()
        .prefix(".tmp-measure-")
        .tempdir_in(root.path())
        .unwrap();
    let dest = root.path().join("measure");
    publish_dir(&tmp.keep(), &dest).unwrap();
    std::fs::create_dir(root.path().join("plain")).unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dest), mode(&root.path().join("plain")));
}

#[test]
fn publishes_a_folder() {
    let root = tempfile::tempdir().unwrap();
    let tmp = root.path().join(".tmp-corpus");
    std::fs::create_dir(&tmp).unwrap();
    std::fs::write(tmp.join("corpus.bin"), "bytes").unwrap();
    let dest = root.path().join("corpus-abc");
    publish_dir(&tmp, &dest).unwrap();
    assert_eq!(names(root.path()), ["corpus-abc"]);
    assert_eq!(names(&dest), ["corpus.bin"]);
}

#[test]
fn publishing_over_a_full_folder_names_the_destination() {
    let root = tempfile::tempdir().unwrap();
    let tmp = root.path().join(".tmp-corpus");
    std::fs::create_dir(&tmp).unwrap();
    let dest = root.path().join("corpus-abc");
    std::fs::create_dir(&dest).unwrap();
    std::fs::write(dest.join("corpus.bin"), "old").unwrap();
    let error = publish_dir(&tmp, &dest).unwrap_err();
    assert_eq!(error.to_string(), format!("cannot write {}", dest.display()));
    assert_eq!(error.source.kind(), ErrorKind::DirectoryNotEmpty);
    assert_eq!(names(root.path()), [".tmp-corpus", "corpus-abc"]);
}

#[test]
fn temporaries_are_recognised_by_the_writers_names_only() {
    assert_eq!(
        temporary_target(".cooccurrence-window15.bin.aB3xY9.tmp"),
        Some("cooccurrence-window15.bin")
    );
    assert_eq!(temporary_target(".seed-00.fifu.000000.tmp"), Some("seed-00.fifu"));
    for other in [
        "cooccurrence-window15.bin",
        ".cooccurrence-window15.bin.aB3xY.tmp",
        ".cooccurrence-window15.bin.aB3xY90.tmp",
        ".cooccurrence-window15.bin.aB-xY9.tmp",
        ".cooccurrence-window15.bin.aB3xY9.tmp.old",
        "notes.aB3xY9.tmp",
        "..aB3xY9.tmp",
        ".tmp",
        ".tmpaB3xY9",
    ] {
        assert_eq!(temporary_target(other), None, "{other}");
    }
}

/// A temporary that a write leaves while it runs carries the name [`temporary_target`] knows.
#[test]
fn a_live_temporary_is_named_as_temporary_target_expects() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let mut seen = Vec::new();
    write_atomic_with(&path, |_| {
        seen = names(dir.path());
        Ok::<(), WriteError>(())
    })
    .unwrap();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(temporary_target(&seen[0]), Some("stats.json"), "{seen:?}");
}

#[test]
fn removes_the_temporaries_of_one_target_only() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        ".seed-00.timing.json.aB3xY9.tmp",
        ".seed-00.timing.json.Q1w2E3.tmp",
        ".seed-01.timing.json.aB3xY9.tmp",
        ".seed-00.timing.json.notes.tmp",
        "seed-00.timing.json",
    ] {
        std::fs::write(dir.path().join(name), "x").unwrap();
    }
    remove_temporaries_of(&dir.path().join("seed-00.timing.json"));
    assert_eq!(
        names(dir.path()),
        [
            ".seed-00.timing.json.notes.tmp",
            ".seed-01.timing.json.aB3xY9.tmp",
            "seed-00.timing.json"
        ]
    );
}
