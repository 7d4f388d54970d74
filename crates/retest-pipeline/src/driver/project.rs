//! The folders of a retest project and a pipeline loaded against them.
//!
//! A project keeps its pipelines in `pipelines/`, its corpus recipes in `corpora/` (with the
//! checksum lock `corpora/checksums.lock`), its word lists in `wordlists/` and the lexicon's
//! declarations in `lexicon/`, side by side. A pipeline file names its project: the folders
//! beside its own folder are used unless the user names others; a study folder without
//! `corpora/`, `wordlists/` or `lexicon/` uses the retest checkout's.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use retest_data::{LockFile, Resolver};
use retest_spec::{Plan, RecipeFolder};

use crate::driver::layout::Layout;

/// The folders a user may name (`--results`, `--corpora`, `--wordlists`); `None` means the
/// project's own, found from the pipeline file.
#[derive(Clone, Debug)]
pub struct Folders {
    /// Where every output goes.
    pub results: PathBuf,
    /// The corpus recipes.
    pub corpora: Option<PathBuf>,
    /// The word lists.
    pub wordlists: Option<PathBuf>,
}

/// The folders one pipeline reads from, resolved.
#[derive(Clone, Debug)]
pub struct Project {
    /// The pipeline file.
    pub pipeline_file: PathBuf,
    pub recipes: RecipeFolder,
    /// The lock file recording checksums learnt on first download, beside the recipes.
    pub lock: PathBuf,
    pub wordlists: PathBuf,
    /// Declarations of WordNet and the tagged Brown corpus.
    pub lexicon: PathBuf,
}

impl Folders {
    /// The recipe folder: the one named, else the project's `corpora/` ([`project_folder`]).
    pub fn recipes(&self, anchor: Option<&Path>) -> RecipeFolder {
        let dir = (self.corpora.clone()).unwrap_or_else(|| project_folder(anchor, "corpora"));
        RecipeFolder { dir }
    }

    /// The word-list folder: the one named, else the project's `wordlists/`
    /// ([`project_folder`]).
    pub fn wordlists(&self, anchor: Option<&Path>) -> PathBuf {
        (self.wordlists.clone()).unwrap_or_else(|| project_folder(anchor, "wordlists"))
    }

    /// The folders of the pipeline `reference` (a path, or a name in `pipelines/`).
    pub fn project(&self, reference: &str) -> Project {
        let pipeline_file = pipeline_file(reference);
        let recipes = self.recipes(Some(&pipeline_file));
        let wordlists = self.wordlists(Some(&pipeline_file));
        let lexicon = lexicon_folder(&wordlists);
        Project {
            lock: lock_file(&recipes),
            pipeline_file,
            recipes,
            wordlists,
            lexicon,
        }
    }
}

/// The lexicon's declarations: `lexicon/` beside the word lists (a study folder's own), else
/// the one of the retest checkout this program was built from, else `./lexicon`.
fn lexicon_folder(wordlists: &Path) -> PathBuf {
    let own = wordlists.parent().map(|root| root.join("lexicon"));
    own.into_iter()
        .chain([checkout_folder("lexicon")])
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| PathBuf::from("lexicon"))
}

/// Folder `name` of the retest checkout this program was built from.
fn checkout_folder(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(name)
}

/// The pipeline file for `reference`: a path if it names an existing file, ends in `.yaml` or
/// holds a `/`, else `pipelines/<reference>.yaml`.
pub fn pipeline_file(reference: &str) -> PathBuf {
    let path = PathBuf::from(reference);
    if path.is_file() || reference.ends_with(".yaml") || reference.contains('/') {
        path
    } else {
        Path::new("pipelines").join(format!("{reference}.yaml"))
    }
}

/// The name of the run of `reference` (its folder in the results): a pipeline name, or the stem
/// of a pipeline file (`pipelines/du2021.yaml` → `du2021`). Reads no file.
pub fn run_name(reference: &str) -> String {
    let path = Path::new(reference);
    if reference.ends_with(".yaml") || reference.contains('/') {
        path.file_stem()
            .map_or_else(|| reference.to_owned(), |s| s.to_string_lossy().into_owned())
    } else {
        reference.to_owned()
    }
}

/// The lock file of the checksums learnt on first download, kept beside the recipes.
pub fn lock_file(recipes: &RecipeFolder) -> PathBuf {
    recipes.dir.join(retest_data::LOCK_FILE)
}

/// The lock file beside the recipe file `recipe` (in its folder), for a recipe prepared on its
/// own (`retest corpus prepare path/to/recipe.yaml`): never the current directory's `corpora/`.
pub fn recipe_lock_file(recipe: &Path) -> PathBuf {
    retest_data::lock_beside(recipe)
}

/// The first of these folders `name` that exists: `<root>/<name>` where `anchor` is
/// `<root>/<folder>/<file>` (a pipeline file in `X/pipelines/` uses `X/<name>`), `./<name>`, and
/// the retest checkout's this program was built from; `./<name>` when none does. A study folder
/// without recipes or lists of its own so uses retest's wherever it is run from.
fn project_folder(anchor: Option<&Path>, name: &str) -> PathBuf {
    let own = anchor
        .and_then(Path::parent)
        .and_then(Path::parent)
        .map(|root| root.join(name));
    own.into_iter()
        .chain([PathBuf::from(name), checkout_folder(name)])
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| PathBuf::from(name))
}

/// A pipeline's plan, with the folders it was resolved against and where its outputs go.
#[derive(Clone, Debug)]
pub struct LoadedPlan {
    pub project: Project,
    pub plan: Plan,
    pub layout: Layout,
}

impl LoadedPlan {
    /// Loads and checks the pipeline `reference` of the project in `folders`.
    ///
    /// # Errors
    ///
    /// The pipeline file or one of its corpus recipes cannot be read or is invalid.
    pub fn load(folders: &Folders, reference: &str) -> Result<LoadedPlan> {
        let project = folders.project(reference);
        if !project.pipeline_file.is_file() && Path::new(reference).is_dir() {
            anyhow::bail!(
                "`{reference}` is a folder: give a pipeline file (`{}`) or the name of one in `pipelines/`",
                Path::new(reference).join("<name>.yaml").display()
            );
        }
        let plan = Plan::load(&project.pipeline_file, &project.recipes)?;
        let layout = Layout::new(&folders.results, &plan);
        Ok(LoadedPlan {
            project,
            plan,
            layout,
        })
    }
}

/// How a local run executes its jobs.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    /// Jobs at a time (training) and threads (measurement); `None`: one per core.
    pub jobs: Option<usize>,
    /// Redo jobs whose outputs exist.
    pub force: bool,
}

impl RunOptions {
    /// The number of jobs at a time: as given, else one per core; at least 1.
    pub fn jobs(&self) -> usize {
        self.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
            .max(1)
    }
}

/// The resolver of a project's data files, configured from the environment: `RETEST_DATA_DIR`
/// (the mirror), `RETEST_CACHE_DIR` (the download cache, default `.cache/downloads`),
/// `RETEST_OFFLINE` (no downloads), with the checksum lock `lock_path`. The one place besides
/// the cluster executor that reads the environment.
///
/// # Errors
///
/// A lock file that cannot be read.
pub fn resolver(lock_path: &Path) -> Result<Resolver> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let mirror = var("RETEST_DATA_DIR").map(PathBuf::from);
    let cache = var("RETEST_CACHE_DIR").map_or_else(|| PathBuf::from(".cache/downloads"), PathBuf::from);
    let offline = var("RETEST_OFFLINE").is_some_and(|v| v != "0");
    Ok(Resolver::new(mirror, cache, LockFile::load(lock_path)?, offline))
}

/// Writes `yaml`, a pipeline named `name` that commands such as `retest reliability` build, to
/// `<results>/<name>/pipeline.yaml` once it is checked, and returns that file.
///
/// # Errors
///
/// The pipeline is not valid, or the file cannot be written.
pub fn write_generated_pipeline(folders: &Folders, name: &str, yaml: &str) -> Result<PathBuf> {
    let file = folders.results.join(name).join("pipeline.yaml");
    Plan::parse(yaml, &file, &folders.recipes(None))?;
    let dir = file.parent().expect("a file in a folder");
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    retest_fs::write_atomic(&file, yaml.as_bytes())?;
    Ok(file)
}
