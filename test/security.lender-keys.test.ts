import { describeSecuritySuite } from "./helpers/security-suite";

// The shared security suite, a quarter of it (the rest: test/security.test.ts and its neighbours).
describeSecuritySuite("lender", ["keys"]);
