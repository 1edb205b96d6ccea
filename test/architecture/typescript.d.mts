// Types of ./typescript.mjs: the typescript module itself, namespace and values.
import ts from "typescript";

export default ts;
