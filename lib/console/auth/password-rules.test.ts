import { describe, expect, it } from "vitest";
import { passwordRuleBroken } from "./password-rules";

describe("passwordRuleBroken", () => {
  it("refuses what is guessed first: short, common, repetitive and sequential passwords", () => {
    expect(passwordRuleBroken("short")).toMatch(/^must be at least 12 characters/);
    expect(passwordRuleBroken("password1234")).toMatch(/most common passwords/);
    for (const repeated of [
      "aaaaaaaaaaaaaaaa",
      "abababababab",
      "abcabcabcabcabc",
      "aaaabbbbcccc",
      "1111222211112222",
      "horsestaplehorsestaple",
      "aaaaaaaaaaaa!",
    ]) {
      expect(passwordRuleBroken(repeated), repeated).toMatch(/^repeats a few characters/);
    }
    for (const run of [
      "cdefghijklmnopq",
      "qponmlkjihgfedc",
      "234567890123",
      "876543210987",
      "cdefghijklmn1",
      "234567890123!",
      "!234567890123x",
    ]) {
      expect(passwordRuleBroken(run), run).toMatch(/^is a run of characters in order/);
    }
  });

  it("accepts a few unrelated words, and long random text", () => {
    for (const good of ["correct horse battery", "lamp-orbit-velvet-crane", "x7#Qm2!vLp9@Rt4z", "abcdefghijkl mnop zebra"]) {
      expect(passwordRuleBroken(good), good).toBeNull();
    }
  });
});
