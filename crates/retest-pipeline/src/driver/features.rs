//! Where the lexical resources of the regression input come from: WordNet 3.0 (sense counts)
//! and the tagged Brown corpus with the universal tag map (parts of speech). Each is declared
//! by source and checksum in the lexicon folder (`lexicon/`) and resolved like a corpus
//! source; WordNet is taken from Debian's `wordnet-base` package instead when it is installed.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use retest_data::{LearntChecksum, Resolver, record_learnt_checksums};
use retest_lexicon::Lexicon;

use crate::lists::resolve_declaration;

/// Where Debian's `wordnet-base` package installs the WordNet 3.0 database.
pub const DEBIAN_WORDNET: &str = "/usr/share/wordnet";

/// The files the lexical features are read from.
#[derive(Clone, Debug)]
pub struct LexiconFiles {
    /// A WordNet database folder (`index.noun`, `noun.exc`, …) or a zip holding one.
    pub wordnet: PathBuf,
    /// NLTK's `brown.zip`.
    pub brown: PathBuf,
    /// NLTK's `universal_tagset.zip` (holding `universal_tagset/en-brown.map`).
    pub universal_tagset: PathBuf,
    /// Checksums learnt for files whose declaration gives none, recorded (in `checksums.lock`
    /// beside the declarations) once [`LexiconFiles::load`] has read them.
    learnt: Vec<LearntChecksum>,
}

impl LexiconFiles {
    /// Finds the three resources: WordNet in [`DEBIAN_WORDNET`] if present, else from
    /// `folder/wordnet.yaml`; Brown and the tag map from `folder/brown.yaml` and
    /// `folder/universal-tagset.yaml`.
    ///
    /// # Errors
    ///
    /// A declaration that cannot be read, or a file that cannot be found or verified (the
    /// message says where it was looked for and how to provide it).
    pub fn resolve(folder: &Path, resolver: &mut Resolver) -> Result<LexiconFiles> {
        anyhow::ensure!(
            folder.is_dir(),
            "no lexicon folder {}: the regression input needs the declarations of WordNet, the \
             Brown corpus and its tag map (`wordnet.yaml`, `brown.yaml`, `universal-tagset.yaml`); \
             copy retest's `lexicon/` beside the study's `wordlists/`",
            folder.display()
        );
        let debian = Path::new(DEBIAN_WORDNET);
        let wordnet = if debian.join("index.noun").is_file() {
            debian.to_owned()
        } else {
            resolve_declaration(&folder.join("wordnet.yaml"), "lexicon", resolver)?
        };
        let brown = resolve_declaration(&folder.join("brown.yaml"), "lexicon", resolver)?;
        let universal_tagset =
            resolve_declaration(&folder.join("universal-tagset.yaml"), "lexicon", resolver)?;
        let learnt = ["wordnet", "brown", "universal-tagset"]
            .into_iter()
            .flat_map(|name| resolver.take_learnt(name))
            .collect();
        Ok(LexiconFiles {
            wordnet,
            brown,
            universal_tagset,
            learnt,
        })
    }

    /// Reads the three resources into a [`Lexicon`] (about a quarter of a second), then records
    /// the checksums learnt for them in the lock file.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or is not in the expected format (the message names it), or
    /// the lock file that cannot be written.
    pub fn load(&self) -> Result<Lexicon> {
        let lexicon = Lexicon::load(&self.wordnet, &self.brown, &self.universal_tagset)
            .context("loading the lexicon (WordNet, Brown corpus, universal tag map)")?;
        record_learnt_checksums(&self.learnt)?;
        Ok(lexicon)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retest_data::LockFile;

    #[test]
    fn a_missing_lexicon_folder_is_named_with_what_it_must_hold() {
        let dir = tempfile::tempdir().unwrap();
        let lock = LockFile::load(&dir.path().join("checksums.lock")).unwrap();
        let mut resolver = Resolver::new(None, dir.path().join("cache"), lock, true);
        let folder = dir.path().join("study/lexicon");
        let error = LexiconFiles::resolve(&folder, &mut resolver).unwrap_err();
        assert_eq!(
            crate::message::one_line(&error),
            format!(
                "no lexicon folder {}: the regression input needs the declarations of WordNet, the \
                 Brown corpus and its tag map (`wordnet.yaml`, `brown.yaml`, `universal-tagset.yaml`); \
                 copy retest's `lexicon/` beside the study's `wordlists/`",
                folder.display()
            )
        );
    }
}
