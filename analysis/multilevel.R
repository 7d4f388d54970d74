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
# ΔR², the column of the paper's Tables 2 and 3, "the reduction in explained variance when a
# factor is left out": for each row of those tables, the full model is refitted without that
# row's terms (same rows, same standardisation — computed once on the full model's rows, not
# redone per refit —, same random intercepts, REML, Nelder-Mead) and ΔR² = R²(full) −
# R²(reduced), a difference of Nakagawa–Schielzeth R²s; in the least-squares fallback both are
# the ordinary R² of lm. The rows and their terms are those of the tables and of the authors'
# released ablation (github.com/nlpsoc/reliability_bias, mlr/multilevel_*.R):
#   scoring rule  metric (test-retest only; one ΔR² for the whole factor)
#   log freq      log_freq and log_freq² together (the authors' "log_frequency" refit drops both)
#   log^2 freq    log_freq² alone
#   log #senses   log_senses
#   PoS           pos, the whole factor
#   NN Sim, L2 norm, ES   nn_sim, l2_norm, es
# The paper does not say whether its ΔR² is of the marginal or the conditional R² (the authors'
# code computes both), so both are written: delta_r2_marginal (the fixed effects' share; the one
# to read against R²_fixed) and delta_r2_conditional (fixed and random together: a predictor
# that varies between corpora or algorithms is partly absorbed by the random intercepts when it
# is dropped, which can make it small or negative). Neither is rounded or clipped at zero — the
# paper's table shows 4 decimals and 0s. A group not in the full model (pos with a single tag, a
# single scoring rule) cannot be dropped: its row has NA and a status saying why. Where a
# random-effect variance is estimated as zero, performance gives no conditional R² (NA, status
# says so). The ΔR² of the random intercepts (the authors also refitted without each) is not
# computed: the paper reports R²_corpus and R²_algorithm as the variance split above instead.
#
# Usage: Rscript analysis/multilevel.R REGRESSION.csv [--scale raw|zscore] [--out DIR]
#   --scale  the inter-rater scale to model (default raw, the paper's: ICC(3,1) of raw scores)
#   --out    where to write multilevel_coefficients.csv, multilevel_r2.csv and
#            multilevel_delta_r2.csv (default: the folder of REGRESSION.csv; `just regress` uses
#            results/<pipeline>/multilevel/)
# multilevel_delta_r2.csv: one row per (analysis, group) in the order above, columns analysis,
# scale (the inter-rater scale; NA for test-retest), group, terms, status (ok, or why a value is
# NA), r2_marginal_full, r2_marginal_reduced, delta_r2_marginal, r2_conditional_full,
# r2_conditional_reduced, delta_r2_conditional, n_obs (rows of both fits).
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

# `score ~ fixed + (1 | kept)`; without grouping factors, an ordinary least-squares formula.
model_formula <- function(fixed, kept) {
  text <- paste("score ~", paste(fixed, collapse = " + "))
  if (length(kept) > 0) text <- paste(text, "+", paste0("(1 | ", kept, ")", collapse = " + "))
  text
}

# The full model and every ΔR² refit go through here: REML, Nelder-Mead, the same rows.
fit_model <- function(formula_text, kept, d) {
  formula <- as.formula(formula_text)
  if (length(kept) > 0) {
    fitter <- if (have_lmertest) lmerTest::lmer else lme4::lmer
    fitter(formula, data = d, REML = TRUE, control = lmerControl(optimizer = "Nelder_Mead"))
  } else {
    lm(formula, data = d)
  }
}

# c(marginal, conditional): Nakagawa & Schielzeth for a mixed model (the conditional one is NA
# when a random-effect variance is zero), the ordinary R² twice for least squares.
r2_of <- function(model, kept) {
  if (length(kept) == 0) return(rep(summary(model)$r.squared, 2))
  r2 <- performance::r2_nakagawa(model)
  c(as.numeric(r2$R2_marginal), as.numeric(r2$R2_conditional))
}

# The ΔR² rows of the paper's Tables 2 and 3, named as there, with the terms each drops (the
# authors' ablation: "log freq" leaves out log freq and log² freq, "log^2 freq" only the square).
# The scoring rule is a predictor of the test-retest model only.
delta_groups <- list(
  list(group = "scoring rule", terms = "metric"),
  list(group = "log freq", terms = c("log_freq", "log_freq_sq")),
  list(group = "log^2 freq", terms = "log_freq_sq"),
  list(group = "log #senses", terms = "log_senses"),
  list(group = "PoS", terms = "pos"),
  list(group = "NN Sim", terms = "nn_sim"),
  list(group = "L2 norm", terms = "l2_norm"),
  list(group = "ES", terms = "es")
)

# ΔR² = R²(full) − R²(full model without the group's terms), marginal and conditional, each
# reduced model refitted on the same standardised rows with the same random intercepts.
delta_r2 <- function(analysis, d, fixed, kept, full) {
  groups <- if (analysis == "test_retest") delta_groups else delta_groups[-1]
  rows <- lapply(groups, function(g) {
    reduced <- c(NA_real_, NA_real_)
    if (!all(g$terms %in% fixed)) {
      # Only metric and pos are left out of the full model, when the data have a single rule
      # or tag: dropping them changes nothing, and the row says so instead of a ΔR² of 0.
      column <- setdiff(g$terms, fixed)[1]
      status <- sprintf("not in the model: one %s (%s)",
                        if (column == "metric") "scoring rule" else column,
                        paste(unique(d[[column]]), collapse = " "))
    } else {
      # Refit messages and warnings (a singular fit, say) are passed on with the group named.
      tell <- function(condition) {
        cat(sprintf("[ΔR² %s without %s] %s\n", analysis, g$group,
                    trimws(conditionMessage(condition))), file = stderr())
      }
      status <- tryCatch(withCallingHandlers({
        reduced <- r2_of(fit_model(model_formula(setdiff(fixed, g$terms), kept), kept, d), kept)
        if (all(is.finite(c(full, reduced)))) {
          "ok"
        } else if (all(is.finite(c(full[1], reduced[1])))) {
          "no conditional R2: a random-effect variance is zero"
        } else {
          "no R2"
        }
      }, warning = function(w) { tell(w); invokeRestart("muffleWarning") },
         message = function(m) { tell(m); invokeRestart("muffleMessage") }),
      error = function(e) paste("refit failed:", gsub("[,\n]+", " ", conditionMessage(e))))
    }
    data.frame(analysis = analysis,
               scale = if (analysis == "inter_rater") scale_arg else NA_character_,
               group = g$group, terms = paste(g$terms, collapse = " + "), status = status,
               r2_marginal_full = full[1], r2_marginal_reduced = reduced[1],
               delta_r2_marginal = full[1] - reduced[1],
               r2_conditional_full = full[2], r2_conditional_reduced = reduced[2],
               delta_r2_conditional = full[2] - reduced[2],
               n_obs = nrow(d))
  })
  rows <- do.call(rbind, rows)
  cat(sprintf(paste0("\nΔR² = R²(full) − R²(without the group), groups as in the paper's",
                     " Tables 2 and 3 (full model: R²m %s, R²c %s%s):\n"),
              format(full[1], digits = 4), format(full[2], digits = 4),
              if (length(kept) == 0) "; least squares, both the ordinary R²" else ""))
  shown <- rows[, c("group", "terms", "delta_r2_marginal", "delta_r2_conditional", "status")]
  names(shown)[3:4] <- c("dR2 marginal", "dR2 conditional")
  width <- options(width = 160)
  print(format(shown, digits = 4), row.names = FALSE)
  options(width)
  rows
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
  formula_text <- model_formula(fixed, kept)
  cat("model:", formula_text, "\n")
  model <- fit_model(formula_text, kept, d)
  coefs <- as.data.frame(summary(model)$coefficients)
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
  delta <- delta_r2(analysis, d, fixed, kept, r2_rows$r2[c(1, 4)])
  list(coefficients = coefs, r2 = r2_rows, delta_r2 = delta)
}

fits <- Filter(Negate(is.null), lapply(c("test_retest", "inter_rater"), fit_one))
if (length(fits) == 0) stop(path, ": no analysis had rows to fit", call. = FALSE)
if (is.null(out_dir)) out_dir <- dirname(path)
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
write.csv(do.call(rbind, lapply(fits, `[[`, "coefficients")),
          file.path(out_dir, "multilevel_coefficients.csv"), row.names = FALSE)
write.csv(do.call(rbind, lapply(fits, `[[`, "r2")),
          file.path(out_dir, "multilevel_r2.csv"), row.names = FALSE)
write.csv(do.call(rbind, lapply(fits, `[[`, "delta_r2")),
          file.path(out_dir, "multilevel_delta_r2.csv"), row.names = FALSE)
cat(sprintf("\nwrote %s, %s and %s\n", file.path(out_dir, "multilevel_coefficients.csv"),
            file.path(out_dir, "multilevel_r2.csv"), file.path(out_dir, "multilevel_delta_r2.csv")))
