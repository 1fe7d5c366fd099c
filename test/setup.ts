// Quiet Powertools in tests unless asked; warnings and errors still reach stderr.
process.env.POWERTOOLS_LOG_LEVEL ??= "ERROR";
