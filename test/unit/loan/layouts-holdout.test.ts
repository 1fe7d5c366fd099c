// The held-out matrix: two Form 1120 prints and three bank layouts designed blind, without reading
// the finders or the other layout sets, every TR_ condition both ways on each print and every BS_
// condition both ways on each bank layout. The labels come from how each file was generated, so a
// failure here is the engine misreading a layout, never the test repeating the engine.
import { holdoutCases } from "../../../examples/layouts/holdout.ts";
import { describeLayoutMatrix } from "./layout-matrix.ts";

describeLayoutMatrix("held-out Form 1120 prints and bank layouts", await holdoutCases(), {
  form1120: 2,
  bank: 3,
});
