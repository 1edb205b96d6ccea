import { it } from "vitest";
import { meet } from "./meet";

it("meets the second suite", { timeout: 70_000 }, () => meet("first", "second"));
