// The labelled matrix of bank-statement layouts the engine was not written against: every BS_
// condition both ways on six layouts. The labels come from how each file was generated, so a
// failure here is the engine misreading a layout, never the test repeating the engine.
import { bankStatementCases } from "../../../examples/layouts/bank-statements.ts";
import { describeLayoutMatrix } from "./layout-matrix.ts";

describeLayoutMatrix(
  "bank statements in layouts the engine was not written against",
  await bankStatementCases(),
  {
    form1120: 0,
    bank: 6,
    atLeast: true,
  },
);
