//! YAML pipeline specs, corpus recipes and WEAT tests files, validated into a [`Plan`] with every default resolved.
//!
//! Parsing happens in one step per file: serde_yaml reads the raw document (unknown keys and
//! wrong types are errors with line, column and field path), then `resolve` checks every value
//! and fills every default from [`defaults`], so nothing later in the pipeline sees an
//! `Option` where the study has a value.

mod declaration;
pub mod defaults;
mod document;
mod error;
mod jobs;
mod locate;
mod model;
mod model_files;
mod pipeline;
mod recipe;
mod weat_tests;

pub use declaration::{DeclaringFile, FileDeclaration};
pub use error::{Location, SpecError};
pub use jobs::Job;
pub use model::{Model, ModelParams, debiased_name};
pub use model_files::ModelFiles;
pub use pipeline::{
    Algorithm, AnalogyParams, Architecture, BasePairParams, DebiasMethod, DebiasParams, GloveParams,
    InterRaterScale, MeasureParams, NbmPool, Plan, RecipeFolder, ReliabilityParams, ResidualParams,
    RipaTarget, Rule, SetLevelParams, SgnsParams, SubspaceParams, ValidityParams,
};
pub use recipe::{CorpusRecipe, ReaderSpec, SourceSpec, UnkHandling, name_problem};
/// The plain-text and Reddit readers' options, spelt in recipes as the corpus readers define them.
pub use retest_corpus::{CaseHandling, NewlineHandling, SentenceSplitting};
/// The standard deviation of WEAT's effect size, named as `retest-measures` names it.
pub use retest_measures::SdKind;
/// The analogy solvers (the registry's categorical family) and their switches, as a pipeline's
/// `analogies` section and `retest analogies` spell them.
pub use retest_measures::{Constraint, DeltaBound, Solver, SolverKind};
/// The registry of measures: the names a pipeline file and the command line use.
pub use retest_measures::{Family, Measure, Reference};
pub use weat_tests::{
    QueryTest, SetRef, SetSpec, WeatTest, WeatTestSpec, WeatTestsFile, WordSet, parse_named_sets,
};

#[cfg(test)]
mod tests;
