//! Raw corpora to encoded corpora: readers, normalisation, tokenisation, vocabulary and the
//! compact on-disk format that the trainers memory-map.
