// Expected failures (cyclic plans, missing documents) are asserted, not logged; set
// POWERTOOLS_LOG_LEVEL=DEBUG to see the handlers' logs while debugging a test.
process.env.POWERTOOLS_LOG_LEVEL ??= "SILENT";
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
