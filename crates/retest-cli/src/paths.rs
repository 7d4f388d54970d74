//! Where the CLI finds pipelines and recipes when given names instead of paths.

use std::path::{Path, PathBuf};

use retest_spec::RecipeFolder;

/// The pipeline file for `reference`: a path if it names an existing file or ends in `.yaml`,
/// else `pipelines/<reference>.yaml`.
pub fn pipeline_path(reference: &str) -> PathBuf {
    let path = PathBuf::from(reference);
    if path.is_file() || reference.ends_with(".yaml") || reference.contains('/') {
        path
    } else {
        Path::new("pipelines").join(format!("{reference}.yaml"))
    }
}

/// The recipe folder: the `--corpora` option, else `corpora/` beside the folder of `anchor`
/// (a pipeline file in `X/pipelines/` uses `X/corpora/`), else `./corpora`.
pub fn recipe_folder(option: Option<&Path>, anchor: Option<&Path>) -> RecipeFolder {
    if let Some(dir) = option {
        return RecipeFolder { dir: dir.to_owned() };
    }
    let beside = anchor
        .and_then(Path::parent)
        .and_then(Path::parent)
        .map(|root| root.join("corpora"))
        .filter(|dir| dir.is_dir());
    RecipeFolder {
        dir: beside.unwrap_or_else(|| PathBuf::from("corpora")),
    }
}

/// The word-list folder: the `--wordlists` option, else `wordlists/` beside the folder of the
/// pipeline file, else `./wordlists`.
pub fn wordlist_folder(option: Option<&Path>, pipeline: &Path) -> PathBuf {
    if let Some(dir) = option {
        return dir.to_owned();
    }
    pipeline
        .parent()
        .and_then(Path::parent)
        .map(|root| root.join("wordlists"))
        .filter(|dir| dir.is_dir())
        .unwrap_or_else(|| PathBuf::from("wordlists"))
}

/// The lexicon folder (declarations of WordNet and the tagged Brown corpus): `lexicon/`
/// beside the word-list folder if there is one, else the project's `lexicon/`.
pub fn lexicon_folder(wordlists: &Path) -> PathBuf {
    wordlists
        .parent()
        .map(|root| root.join("lexicon"))
        .filter(|dir| dir.is_dir())
        .unwrap_or_else(|| PathBuf::from("lexicon"))
}

/// The lock file recording checksums learnt on first download, kept beside the recipes.
pub fn lock_path(recipes: &RecipeFolder) -> PathBuf {
    recipes.dir.join("checksums.lock")
}
