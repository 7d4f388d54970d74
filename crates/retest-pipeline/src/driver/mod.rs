//! The driver: a project's folders and plan, the jobs of a pipeline (prepare, train, measure,
//! aggregate, report, manifest) on this machine or as Slurm jobs, where each output lives and
//! whether it is done, locks, stale temporaries, memory estimates and the run's status.

pub(crate) mod aggregate;
pub mod cluster;
pub(crate) mod cooccurrence;
pub(crate) mod features;
pub(crate) mod jobs;
pub(crate) mod layout;
pub(crate) mod lock;
pub(crate) mod manifest;
pub(crate) mod memory;
pub(crate) mod model_files;
pub(crate) mod project;
pub(crate) mod regression;
pub(crate) mod run;
pub mod slurm;
pub(crate) mod stale;
pub(crate) mod status;
pub(crate) mod task;
pub(crate) mod train;
