// The second held-out check: two Form 1120 prints and three bank layouts designed without reading
// the finders (examples/layouts/holdout-2.ts). Labels come from how each file was generated, so a
// failure here is the engine misreading a layout, never the test repeating the engine.
import { holdoutCases2 } from "../../../examples/layouts/holdout-2.ts";
import { describeLayoutMatrix } from "./layout-matrix.ts";

describeLayoutMatrix(
  "second held-out check: layouts designed without reading the finders",
  await holdoutCases2(),
  {
    form1120: 2,
    bank: 3,
  },
);
