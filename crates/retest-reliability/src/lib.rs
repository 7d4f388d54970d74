//! Reliability statistics: intraclass correlations, Cronbach's alpha, Cohen's and Fleiss' kappa.
