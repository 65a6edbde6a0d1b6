import { describe, expect, it } from "vitest";
import { Problem, problemDetail, problemSentence } from "./problem";

describe("problemSentence", () => {
  it("says the title, then the detail as a sentence of its own", () => {
    expect(problemSentence(Problem.of("upstream_timeout", { title: "No answer in time", detail: "No answer within 10 s." }))).toBe(
      "No answer in time. No answer within 10 s.",
    );
  });

  it("is the title alone when there is no detail, and adds no stop after a title that has one", () => {
    expect(problemSentence({ title: "The request failed (HTTP 500)" })).toBe("The request failed (HTTP 500)");
    expect(problemSentence({ title: "Too many requests.", detail: "Wait a minute." })).toBe("Too many requests. Wait a minute.");
    expect(problemSentence({ title: " Refused ", detail: "  " })).toBe("Refused");
  });
});

describe("problemDetail", () => {
  it("is the detail after a heading of the caller's own, else the title; a Problem's message is the same", () => {
    const problem = Problem.of("upstream_timeout", { detail: "No answer within 10 s." });
    expect(problemDetail(problem)).toBe("No answer within 10 s.");
    expect(problem.message).toBe("No answer within 10 s.");
    expect(problemDetail({ title: "Refused", detail: " " })).toBe("Refused");
  });
});
