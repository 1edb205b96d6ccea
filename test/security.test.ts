import { describeSecuritySuite } from "./helpers/security-suite";

// The shared security suite: every authenticated operation of both OpenAPI documents.
describeSecuritySuite();
