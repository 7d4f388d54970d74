//! The output policy case by case: inputs through other paths, names, and what is there.

use std::path::{Path, PathBuf};

use super::*;

/// A folder with a word2vec text model `v.txt`, a CSV table `t.csv`, a Parquet file `t.parquet`
/// and a `.fifu` model `m.fifu`.
fn folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_owned();
    std::fs::write(root.join("v.txt"), "2 2\nhe 1 0\nshe 0 1\n").unwrap();
    std::fs::write(root.join("t.csv"), "a,b\n1,2\n").unwrap();
    std::fs::write(root.join("t.parquet"), b"PAR1\x15\x04\x15").unwrap();
    let emb =
        retest_embeddings::Embeddings::new(vec!["he".into(), "she".into()], 2, vec![1.0, 0.0, 0.0, 1.0])
            .unwrap();
    retest_embeddings::write(&root.join("m.fifu"), &emb, Format::Fifu).unwrap();
    (dir, root)
}

fn message(result: Result<impl fmt::Debug>) -> String {
    format!("{:#}", result.unwrap_err())
}

#[test]
fn an_input_is_refused_through_any_path() {
    let (_dir, root) = folder();
    let input = root.join("m.fifu");
    std::fs::create_dir(root.join("sub")).unwrap();
    let dotted = root.join("sub/../m.fifu");
    let linked = root.join("link.fifu");
    std::os::unix::fs::symlink(&input, &linked).unwrap();
    let hard = root.join("hard.fifu");
    std::fs::hard_link(&input, &hard).unwrap();
    for out in [&input, &dotted, &linked, &hard] {
        assert_eq!(
            message(embedding_file(out, &[&input], None, Overwrite::Force)),
            format!(
                "--output {}: that is the input file {}; choose another output file",
                out.display(),
                input.display()
            )
        );
        assert_eq!(
            message(table_file(out, &[Path::new("x"), &input], Overwrite::Force)),
            format!(
                "--out {}: that is the input file {}; choose another output file",
                out.display(),
                input.display()
            )
        );
    }
    assert!(same_file(&input, &hard) && !same_file(&input, &root.join("v.txt")));
}

#[test]
fn a_table_format_follows_the_name() {
    let (_dir, root) = folder();
    let new = |name: &str| table_file(&root.join(name), &[], Overwrite::Refuse);
    assert_eq!(new("new.csv").unwrap(), TableFormat::Csv);
    assert_eq!(new("new.parquet").unwrap(), TableFormat::Parquet);
    for name in ["new.txt", "new", "new.fifu"] {
        assert_eq!(
            message(new(name)),
            format!(
                "--out {}: the format follows the file name: end it in .parquet or .csv",
                root.join(name).display()
            )
        );
    }
    assert_eq!(
        message(table_file(&root, &[], Overwrite::Force)),
        format!(
            "--out {}: that is a folder; name a file ending in .parquet or .csv",
            root.display()
        )
    );
}

#[test]
fn a_table_replaces_a_table_of_its_format_and_nothing_else_without_force() {
    let (_dir, root) = folder();
    std::fs::write(root.join("empty.parquet"), "").unwrap();
    for name in ["t.csv", "t.parquet", "empty.parquet"] {
        table_file(&root.join(name), &[], Overwrite::Refuse).unwrap();
    }
    let cases = [
        ("csv", "m.fifu", "fifu embeddings", "CSV"),
        ("csv", "v.txt", "word2vec-text embeddings", "CSV"),
        ("csv", "t.parquet", "a Parquet file", "CSV"),
        ("parquet", "t.csv", "a CSV table", "Parquet"),
        ("parquet", "m.fifu", "fifu embeddings", "Parquet"),
    ];
    for (extension, source, holds, format) in cases {
        let out = root.join(format!("other-{source}.{extension}"));
        std::fs::copy(root.join(source), &out).unwrap();
        assert_eq!(
            message(table_file(&out, &[], Overwrite::Refuse)),
            format!(
                "--out {}: the file there holds {holds}, not a {format} table; pass --force to replace it",
                out.display()
            )
        );
        table_file(&out, &[], Overwrite::Force).unwrap();
    }
    let binary = root.join("b.csv");
    std::fs::write(&binary, b"\x00\x01\x02").unwrap();
    assert!(message(table_file(&binary, &[], Overwrite::Refuse)).contains("holds binary data, not a CSV"));
    // Text is a table only when its first line is a header of column names.
    for (name, text, table) in [
        ("header.csv", "embedding,rule,score\nx,dbwa,0.5\n", true),
        ("crlf.csv", "a,b_2\r\n1,2\r\n", true),
        ("notes.csv", "Notes on the run, by hand.\n", false),
        ("config.csv", "name: p\nseed: 7\n", false),
        ("one-column.csv", "word\nnurse\n", false),
    ] {
        let out = root.join(name);
        std::fs::write(&out, text).unwrap();
        let result = table_file(&out, &[], Overwrite::Refuse);
        if table {
            result.unwrap();
        } else {
            assert_eq!(
                message(result),
                format!(
                    "--out {}: the file there holds text, not a CSV table; pass --force to replace it",
                    out.display()
                )
            );
        }
    }
}

#[test]
fn a_link_is_never_an_output() {
    let (_dir, root) = folder();
    let target = root.join("target.csv");
    std::fs::write(&target, "a,b\n1,2\n").unwrap();
    for (link, points_to) in [
        ("link.csv", target.clone()),
        ("dangling.csv", root.join("nothing.csv")),
    ] {
        let link = root.join(link);
        std::os::unix::fs::symlink(&points_to, &link).unwrap();
        for overwrite in [Overwrite::Refuse, Overwrite::Force] {
            assert_eq!(
                message(table_file(&link, &[], overwrite)),
                format!(
                    "--out {}: that is a symbolic link, which the output would replace (not its target); name the \
                     file itself",
                    link.display()
                )
            );
        }
    }
    let model = root.join("model.fifu");
    std::os::unix::fs::symlink(root.join("m.fifu"), &model).unwrap();
    assert!(
        message(embedding_file(&model, &[], None, Overwrite::Force))
            .starts_with(&format!("--output {}: that is a symbolic link", model.display()))
    );
}

#[test]
fn an_embedding_format_follows_the_name_or_agrees_with_it() {
    let (_dir, root) = folder();
    let check =
        |name: &str, format: Option<Format>| embedding_file(&root.join(name), &[], format, Overwrite::Refuse);
    assert_eq!(check("new.fifu", None).unwrap(), Format::Fifu);
    assert_eq!(check("new.bin", None).unwrap(), Format::Word2VecBinary);
    assert_eq!(check("new.vec", None).unwrap(), Format::Word2VecText);
    assert_eq!(
        check("new.txt", Some(Format::GloveText)).unwrap(),
        Format::GloveText
    );
    assert_eq!(
        check("new.txt", Some(Format::Word2VecText)).unwrap(),
        Format::Word2VecText
    );
    let path = |name: &str| root.join(name).display().to_string();
    assert_eq!(
        message(check("new.txt", None)),
        format!(
            "--output {}: a .txt file may be word2vec-text or glove-text; pass --format",
            path("new.txt")
        )
    );
    assert_eq!(
        message(check("new.npy", None)),
        format!(
            "--output {}: the format follows the file name: end it in .fifu (fifu), .txt or .vec (word2vec-text), \
             .bin (word2vec-binary), .txt (glove-text)",
            path("new.npy")
        )
    );
    assert_eq!(
        message(check("new.fifu", Some(Format::Word2VecText))),
        format!(
            "--output {}: --format word2vec-text needs a file name ending in .txt or .vec",
            path("new.fifu")
        )
    );
    assert_eq!(
        message(check("new.vec", Some(Format::GloveText))),
        format!(
            "--output {}: --format glove-text needs a file name ending in .txt",
            path("new.vec")
        )
    );
}

#[test]
fn an_embedding_file_replaces_nothing_but_an_empty_file_without_force() {
    let (_dir, root) = folder();
    let fifu = root.join("m.fifu");
    assert_eq!(
        message(embedding_file(&fifu, &[], None, Overwrite::Refuse)),
        format!(
            "--output {}: the file exists (it holds fifu embeddings); pass --force to replace it",
            fifu.display()
        )
    );
    assert_eq!(
        embedding_file(&fifu, &[], None, Overwrite::Force).unwrap(),
        Format::Fifu
    );
    let empty = root.join("empty.bin");
    std::fs::write(&empty, "").unwrap();
    assert_eq!(
        embedding_file(&empty, &[], None, Overwrite::Refuse).unwrap(),
        Format::Word2VecBinary
    );
    let sub = root.join("sub.fifu");
    std::fs::create_dir(&sub).unwrap();
    assert_eq!(
        message(embedding_file(&sub, &[], None, Overwrite::Force)),
        format!(
            "--output {}: that is a folder; name the embedding file",
            sub.display()
        )
    );
}

#[test]
fn a_new_folder_and_a_report_folder() {
    let (_dir, root) = folder();
    new_folder(&root.join("new")).unwrap();
    let dangling = root.join("dangling");
    std::os::unix::fs::symlink(root.join("nothing"), &dangling).unwrap();
    for taken in [root.join("t.csv"), dangling] {
        assert_eq!(
            message(new_folder(&taken)),
            format!(
                "--out {}: it exists; name a new folder (the tables are written into it)",
                taken.display()
            )
        );
    }

    let tables = root.join("tables");
    std::fs::create_dir(&tables).unwrap();
    report_folder(&root.join("report"), &tables).unwrap();
    let empty = root.join("empty");
    std::fs::create_dir(&empty).unwrap();
    report_folder(&empty, &tables).unwrap();
    let earlier = root.join("earlier");
    std::fs::create_dir(&earlier).unwrap();
    std::fs::write(earlier.join("report.md"), "# retest report: p\n\ntext\n").unwrap();
    report_folder(&earlier, &tables).unwrap();
    assert_eq!(
        message(report_folder(&root.join("tables/../tables"), &tables)),
        format!(
            "--out {}: that is the tables folder {}; write the report into another folder",
            root.join("tables/../tables").display(),
            tables.display()
        )
    );
    assert_eq!(
        message(report_folder(&root, &tables)),
        format!(
            "--out {}: the folder holds other files and no report; name a new or empty folder",
            root.display()
        )
    );
    assert_eq!(
        message(report_folder(&root.join("t.csv"), &tables)),
        format!(
            "--out {}: that is a file; name a folder for the report",
            root.join("t.csv").display()
        )
    );
}
