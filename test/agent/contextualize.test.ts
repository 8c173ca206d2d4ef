import { describe, expect, it } from "vitest";
import { withStatedProduct } from "../../src/agent/nodes/contextualize.js";
import { analyze } from "../../src/text/analysis/index.js";

describe("a first turn's query", () => {
  const products = new Set(analyze("lighthouse term life harbournest renters"));
  const message = "I'm 40 and thinking about $400k of term life. Will I have to do a medical exam?";

  it("keeps the product a statement named when the question names none", () => {
    expect(withStatedProduct("Will I have to do a medical exam?", message, products)).toBe("Will I have to do a medical exam? term life");
  });

  it("is the question alone when it names a product, or when no statement does", () => {
    expect(withStatedProduct("Does HarbourNest cover floods?", "I rent in Toronto. Does HarbourNest cover floods?", products)).toBe("Does HarbourNest cover floods?");
    expect(withStatedProduct("Will I need an exam?", "I'm 40. Will I need an exam?", products)).toBe("Will I need an exam?");
  });
});
