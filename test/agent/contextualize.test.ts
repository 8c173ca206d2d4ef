import { describe, expect, it } from "vitest";
import { pickedDocuments, withReferent, withStatedProduct } from "../../src/agent/nodes/contextualize.js";
import { EMPTY_TAXONOMY, type ProductEntry, type Taxonomy } from "../../src/domain/taxonomy.js";
import type { ClarifyOption } from "../../src/domain/turn.js";
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

describe("a first turn's question that points back at its statement", () => {
  const taxonomy: Taxonomy = { ...EMPTY_TAXONOMY, vocabulary: new Set(analyze("bicycles e-bikes marina cost worth")), labelVocabulary: new Set(analyze("Bicycles and e-bikes")) };
  const message = "My e-bike cost me about $2,000. If it gets stolen, does the Plus plan cover the whole amount?";
  const question = "If it gets stolen, does the Plus plan cover the whole amount?";

  it("carries what the statement named, as the documents label things", () => {
    expect(withReferent(question, message, taxonomy)).toBe(`${question} bike`);
  });

  it("carries it too when the question is nothing but its asking ('For how many days?')", () => {
    const cars: Taxonomy = { ...EMPTY_TAXONOMY, vocabulary: new Set(analyze("replacement car branch days")), labelVocabulary: new Set(analyze("Replacement car")) };
    expect(withReferent("For how many days?", "Someone at your branch said the plan comes with a replacement car. For how many days?", cars)).toBe(
      "For how many days? replacement car",
    );
    expect(withReferent("For how many days is the car hire?", "Someone said there is a replacement car. For how many days is the car hire?", cars)).toBe(
      "For how many days is the car hire?",
    );
  });

  it("carries nothing when the question names its own subject, says no 'it', or the statement's words label nothing", () => {
    expect(withReferent("Is a bike covered?", "My e-bike cost me $2,000. Is a bike covered?", taxonomy)).toBe("Is a bike covered?");
    expect(withReferent("Does the Plus plan cover theft?", "My e-bike cost me $2,000. Does the Plus plan cover theft?", taxonomy)).toBe("Does the Plus plan cover theft?");
    // "marina" is a word of the documents but names none of their things; "cost" says what is asked.
    expect(withReferent("Can you insure it?", "I keep a boat at the marina, it cost a lot. Can you insure it?", taxonomy)).toBe("Can you insure it?");
    expect(withReferent(question, question, taxonomy)).toBe(question);
    // «آن» after a noun is as often "that" as "it": a question with words of its own keeps them.
    expect(withReferent("سقف سرقت آن چقدر است؟", "من یک دوچرخه (e-bike) دارم. سقف سرقت آن چقدر است؟", taxonomy)).toBe("سقف سرقت آن چقدر است؟");
  });
});

describe("the documents a clarify pick is answered from", () => {
  const option = (product: string, documentId: string): ClarifyOption => ({ label: product, documentId, product, domain: "motor", title: product });
  const entry = (product: string, documentIds: string[]): ProductEntry => ({ product, domain: "motor", titles: {}, documentIds, languages: ["en"], nameTerms: [], general: false });
  const taxonomy: Taxonomy = { ...EMPTY_TAXONOMY, products: [entry("wheel", ["wheel-prices", "wheel-benefits"]), entry("lane", ["lane"])] };

  it("are every document of a product picked among products, the offered one first", () => {
    const options = [option("wheel", "wheel-prices"), option("lane", "lane")];
    expect(pickedDocuments(options, options[0]!, taxonomy)).toEqual(["wheel-prices", "wheel-benefits"]);
  });

  it("are the table's document for a row or column picked from one table", () => {
    const options = [option("wheel", "wheel-prices"), { ...option("wheel", "wheel-prices"), label: "Gold" }];
    expect(pickedDocuments(options, options[1]!, taxonomy)).toEqual(["wheel-prices"]);
  });
});
