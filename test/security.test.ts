import { describeSecuritySuite } from "./helpers/security-suite";

// The shared security suite: every authenticated operation of both OpenAPI documents, in four files so the
// two workers share it (docs/testing.md): this one, the partner API's refused credentials (401); the partner
// API's keys used where they do not belong (security.partner-keys), and the same two for the lender API
// (security.lender-credentials, security.lender-keys).
describeSecuritySuite("partner", ["credentials"]);
