import { describe, expect, it } from "vitest";
import { questionTerms } from "../../src/reading/evidence-terms.js";
import { analyze } from "../../src/text/analysis/index.js";

describe("a question's content terms", () => {
  it('leave out how a duration is asked ("how long does it take"), not the word take when it is content', () => {
    expect(questionTerms("how long does it take to get a final answer to a complaint?")).toEqual(analyze("final answer complaint"));
    expect(questionTerms("can I take my car to Oman?")).toEqual(analyze("take car oman"));
  });
});
