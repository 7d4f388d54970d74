//! YAML pipeline specs and corpus recipes, validated into a `Plan` with every default resolved.
