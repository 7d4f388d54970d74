#!/usr/bin/env Rscript
# The multilevel regression of Du, Fang & Nguyen (2021, §5.5 and Table 2) on the regression
# input a retest run writes (results/<pipeline>/tables/regression.csv, see docs/tables.md):
#
#   score ~ metric + log_freq + log_freq² + log_senses + pos + nn_sim + l2_norm + es
#           + (1 | algorithm) + (1 | corpus)
#
# fitted separately for test-retest reliability (ICC(2,1) per word and rule) and inter-rater
# consistency (ICC(3,1) per word across rules, without `metric`). As in the original analysis,
# log_freq, log_senses, nn_sim, l2_norm and es are z-scored over the pooled rows of an analysis
# (all corpora, algorithms and rules) and log_freq² is the square of the standardised log_freq;
# pos is a factor with treatment contrasts (baseline: the first tag in sort order). Models are
# fitted by REML with lme4's Nelder-Mead optimiser; p-values come from lmerTest (Satterthwaite)
# when it is installed. R² after Nakagawa & Schielzeth (performance::r2_nakagawa): the marginal
# R² is the fixed effects' share, and the random effects' share R²c − R²m is split between
# corpus and algorithm in proportion to their variances.
#
# A grouping factor with a single level (a pipeline with one corpus or one algorithm) cannot
# carry a random intercept: the term is dropped and the output says so; with neither, the model
# is an ordinary least-squares fit.
#
# Usage: Rscript analysis/multilevel.R REGRESSION.csv [--scale raw|zscore] [--out DIR]
#   --scale  the inter-rater scale to model (default raw, the paper's: ICC(3,1) of raw scores)
#   --out    where to write multilevel_coefficients.csv and multilevel_r2.csv (default: the
#            folder of REGRESSION.csv; `just regress` uses results/<pipeline>/multilevel/)
# Needs R with lme4 and performance (Debian: r-cran-lme4 r-cran-performance; r-cran-lmertest
# for p-values).

suppressPackageStartupMessages({
  library(lme4)
  library(performance)
})

args <- commandArgs(trailingOnly = TRUE)
usage <- "usage: Rscript analysis/multilevel.R REGRESSION.csv [--scale raw|zscore] [--out DIR]"
scale_arg <- "raw"
path <- NULL
out_dir <- NULL
i <- 1
while (i <= length(args)) {
  if (args[i] %in% c("--scale", "--out")) {
    if (i == length(args)) stop(usage, call. = FALSE)
    if (args[i] == "--scale") scale_arg <- args[i + 1] else out_dir <- args[i + 1]
    i <- i + 2
  } else if (is.null(path)) {
    path <- args[i]
    i <- i + 1
  } else {
    stop(usage, call. = FALSE)
  }
}
if (is.null(path)) stop(usage, call. = FALSE)
if (!scale_arg %in% c("raw", "zscore")) {
  stop("--scale must be raw or zscore, not `", scale_arg, "`", call. = FALSE)
}
if (!file.exists(path)) {
  stop(path, ": no such file; `just reproduce-du2021 PIPELINE` writes it into results/PIPELINE/tables/",
       call. = FALSE)
}

data <- read.csv(path, stringsAsFactors = FALSE, na.strings = c("", "NA"))
needed <- c("analysis", "corpus", "algorithm", "metric", "scale", "word", "score", "log_freq",
            "log_senses", "pos", "nn_sim", "l2_norm", "es")
missing <- setdiff(needed, names(data))
if (length(missing) > 0) {
  stop(path, ": missing column(s) ", paste(missing, collapse = ", "),
       " (expected the regression table of docs/tables.md)", call. = FALSE)
}
have_lmertest <- requireNamespace("lmerTest", quietly = TRUE)
continuous <- c("log_freq", "log_senses", "nn_sim", "l2_norm", "es")

zscore <- function(x) as.numeric(scale(x, center = TRUE, scale = TRUE))

# The analysis's rows, complete and standardised as in the original R code.
prepare <- function(analysis) {
  d <- data[data$analysis == analysis, ]
  if (analysis == "inter_rater") d <- d[d$scale == scale_arg, ]
  d <- d[complete.cases(d[, c("score", continuous, "pos")]), ]
  for (column in continuous) d[[column]] <- zscore(d[[column]])
  d$log_freq_sq <- d$log_freq^2
  d$pos <- factor(d$pos)
  d
}

fit_one <- function(analysis) {
  d <- prepare(analysis)
  cat(sprintf("\n== %s: %d rows, %d words, corpora: %s; algorithms: %s\n", analysis, nrow(d),
              length(unique(d$word)), paste(sort(unique(d$corpus)), collapse = ", "),
              paste(sort(unique(d$algorithm)), collapse = ", ")))
  if (nrow(d) < 10) {
    cat("too few complete rows to fit\n")
    return(NULL)
  }
  fixed <- c(if (analysis == "test_retest" && length(unique(d$metric)) > 1) "metric",
             "log_freq", "log_freq_sq", "log_senses",
             if (length(levels(d$pos)) > 1) "pos",
             "nn_sim", "l2_norm", "es")
  groups <- c("algorithm", "corpus")
  kept <- groups[sapply(groups, function(g) length(unique(d[[g]])) > 1)]
  for (g in setdiff(groups, kept)) {
    cat(sprintf("(1 | %s) dropped: a single %s in the data\n", g, g))
  }
  formula_text <- paste("score ~", paste(fixed, collapse = " + "))
  if (length(kept) > 0) {
    formula_text <- paste(formula_text, "+", paste0("(1 | ", kept, ")", collapse = " + "))
  }
  cat("model:", formula_text, "\n")
  formula <- as.formula(formula_text)
  if (length(kept) > 0) {
    fitter <- if (have_lmertest) lmerTest::lmer else lme4::lmer
    model <- fitter(formula, data = d, REML = TRUE,
                    control = lmerControl(optimizer = "Nelder_Mead"))
    coefs <- as.data.frame(summary(model)$coefficients)
  } else {
    model <- lm(formula, data = d)
    coefs <- as.data.frame(summary(model)$coefficients)
  }
  names(coefs)[names(coefs) == "Std. Error"] <- "std_error"
  names(coefs)[names(coefs) == "t value"] <- "t"
  names(coefs)[names(coefs) == "Pr(>|t|)"] <- "p_value"
  names(coefs)[names(coefs) == "Estimate"] <- "estimate"
  coefs <- data.frame(analysis = analysis, term = rownames(coefs), coefs, row.names = NULL,
                      check.names = FALSE)
  if (!"p_value" %in% names(coefs)) coefs$p_value <- NA_real_
  coefs <- coefs[, c("analysis", "term", "estimate", "std_error", "t", "p_value")]
  cat("\nfixed effects (continuous predictors standardised):\n")
  print(format(coefs[, -1], digits = 4), row.names = FALSE)
  if (!have_lmertest && length(kept) > 0) cat("(p-values need lmerTest: r-cran-lmertest)\n")

  if (length(kept) > 0) {
    r2 <- performance::r2_nakagawa(model)
    r2m <- as.numeric(r2$R2_marginal)
    r2c <- as.numeric(r2$R2_conditional)
    vc <- as.data.frame(VarCorr(model))
    # NA for a grouping factor dropped from the model.
    variance <- function(g) if (g %in% vc$grp) vc$vcov[vc$grp == g] else NA_real_
    s2_corpus <- variance("corpus")
    s2_algorithm <- variance("algorithm")
    total <- sum(c(s2_corpus, s2_algorithm), na.rm = TRUE)
    random <- r2c - r2m
    share <- function(s2) if (is.na(s2)) NA_real_ else if (total > 0) random * s2 / total else 0
    r2_rows <- data.frame(analysis = analysis,
                          part = c("fixed", "corpus", "algorithm", "conditional"),
                          r2 = c(r2m, share(s2_corpus), share(s2_algorithm), r2c))
  } else {
    r2_rows <- data.frame(analysis = analysis, part = c("fixed", "corpus", "algorithm", "conditional"),
                          r2 = c(summary(model)$r.squared, NA, NA, summary(model)$r.squared))
  }
  cat("\nR² (Nakagawa & Schielzeth; corpus and algorithm split R²c − R²m by their variances):\n")
  print(format(r2_rows[, -1], digits = 4), row.names = FALSE)
  list(coefficients = coefs, r2 = r2_rows)
}

fits <- Filter(Negate(is.null), lapply(c("test_retest", "inter_rater"), fit_one))
if (length(fits) == 0) stop(path, ": no analysis had rows to fit", call. = FALSE)
if (is.null(out_dir)) out_dir <- dirname(path)
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
write.csv(do.call(rbind, lapply(fits, `[[`, "coefficients")),
          file.path(out_dir, "multilevel_coefficients.csv"), row.names = FALSE)
write.csv(do.call(rbind, lapply(fits, `[[`, "r2")),
          file.path(out_dir, "multilevel_r2.csv"), row.names = FALSE)
cat(sprintf("\nwrote %s and %s\n", file.path(out_dir, "multilevel_coefficients.csv"),
            file.path(out_dir, "multilevel_r2.csv")))
