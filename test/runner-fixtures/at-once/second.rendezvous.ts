import { it } from "vitest";
import { meet } from "./meet";

it("meets the first suite", { timeout: 70_000 }, () => meet("second", "first"));
