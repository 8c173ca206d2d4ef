import type { TriageInput, TriageOutput } from "../roles.js";
import { foldForMatch } from "../../text/index.js";
import { toldOfOthers } from "../../text/habit.js";
import { OFF_TOPIC, STRONG_IN_SCOPE, WEAK_IN_SCOPE } from "./lexicon.js";
import { contentTerms, phraseRegex, round2 } from "./terms.js";
import { isElliptical, latestQueryLine } from "./contextualize.js";

/**
 * Rule-based intent classification. The agent catches explicit handoff requests, restricted
 * intents, frustration and bare greetings before calling a model; these rules still classify
 * them sensibly. Order matters: a person request beats everything, "my claim status" beats the
 * insurance vocabulary it contains, and greetings only win when nothing else is asked.
 */

// --- handoff: a verb of talking/connecting plus a human, or a bare "operator" -------------------
const HANDOFF_VERB = phraseRegex([
  "talk to",
  "talk with",
  "speak to",
  "speak with",
  "chat with",
  "connect me",
  "put me through",
  "transfer me",
  "get me",
  "let me talk",
  "can i talk",
  "can i speak",
  "صحبت",
  "حرف بزنم",
  "وصل",
  "ارتباط",
  "تماس بگیرم",
  "می خواهم",
  "میخواهم",
  "می خوام",
  "میخوام",
  "بدهید",
  "بدید",
]);
const HUMAN = phraseRegex([
  "human",
  "a person",
  "real person",
  "someone real",
  "live agent",
  "human agent",
  "an agent",
  "agent",
  "operator",
  "representative",
  "consultant",
  "staff member",
  "somebody",
  "someone",
  "کارشناس",
  "اپراتور",
  "اپراتور انسانی",
  "انسان",
  "آدم واقعی",
  "یک آدم",
  "پشتیبان",
  "مشاور",
  "نیروی انسانی",
]);
const BARE_HANDOFF =
  /^(?:human|operator|agent|representative|real person|a human|human please|operator please|agent please|اپراتور|کارشناس|انسان|اپراتور لطفا|کارشناس لطفا)[\s.!?]*$/u;
const HUMAN_STRONG = phraseRegex(["human", "real person", "live agent", "human agent", "operator", "representative", "اپراتور", "انسان", "آدم واقعی", "نیروی انسانی"]);

// --- chitchat -------------------------------------------------------------------------------------
const CHITCHAT = phraseRegex([
  "hi",
  "hello",
  "hey",
  "hiya",
  "good morning",
  "good afternoon",
  "good evening",
  "good night",
  "thanks",
  "thank you",
  "thank you very much",
  "thanks a lot",
  "thx",
  "cheers",
  "bye",
  "goodbye",
  "see you",
  "have a nice day",
  "how are you",
  "how are you doing",
  "how's it going",
  "who are you",
  "what are you",
  "are you a bot",
  "are you a robot",
  "are you human",
  "what's your name",
  "what is your name",
  "nice to meet you",
  "great",
  "ok",
  "okay",
  "cool",
  "perfect",
  "سلام",
  "درود",
  "وقت بخیر",
  "وقت به خیر",
  "صبح بخیر",
  "صبح به خیر",
  "عصر بخیر",
  "شب بخیر",
  "ممنون",
  "ممنونم",
  "مرسی",
  "متشکرم",
  "سپاس",
  "سپاسگزارم",
  "دستت درد نکنه",
  "دست شما درد نکند",
  "خداحافظ",
  "خدانگهدار",
  "خوبی",
  "خوب هستید",
  "حالت چطوره",
  "حال شما چطور است",
  "چطوری",
  "تو کی هستی",
  "شما کی هستید",
  "اسمت چیه",
  "اسم شما چیست",
  "ربات هستی",
  "ربات",
  "عالی",
  "باشه",
]);
// Words of a greeting that are not stopwords: removed before deciding whether anything else was asked.
const CHITCHAT_TERMS = new Set(
  contentTerms(
    "hi hello hey hiya morning afternoon evening night thanks thank thx cheers bye goodbye see nice day going name meet bot robot human great cool perfect سلام درود وقت بخیر صبح عصر شب ممنونم متشکرم سپاس سپاسگزارم دستت درد نکنه دست نکند خداحافظ خدانگهدار خوبی خوب حالت حال چطوری هستی هستید اسمت اسم چیست ربات عالی باشه",
  ),
);

// --- account: the user's own records, which need identity -----------------------------------------
const EN_RECORD =
  /(?<![\p{L}])(?:my|our)\s+(?:[\p{L}-]+\s+){0,3}?(claims?|polic(?:y|ies)|payments?|instal(?:l)?ments?|premiums?|refunds?|reimbursement|balance|account|invoices?|bills?|case|file|application|request|renewal|insurance|cover(?:age)?|contract|card|debt)(?![\p{L}])/u;
const EN_STRONG_RECORD = /^(?:instal(?:l)?ments?|refunds?|reimbursement|balance|account|invoices?|bills?|debt|case|application|request)$/u;
const EN_STATE = phraseRegex([
  "status",
  "progress",
  "due",
  "owe",
  "outstanding",
  "overdue",
  "late",
  "missed",
  "next",
  "expire",
  "expires",
  "expired",
  "expiry",
  "expiration",
  "end",
  "ends",
  "run out",
  "renewal date",
  "valid until",
  "active",
  "lapsed",
  "number",
  "received",
  "receive",
  "did you get",
  "got my",
  "processed",
  "approved",
  "rejected",
  "declined",
  "paid",
  "pending",
  "where is",
  "where's",
  "wheres",
  "any news",
  "any update",
  "when will",
  "when is",
  "update on",
  "remaining",
  "left to pay",
]);
const EN_CHANGE =
  /(?<![\p{L}])(?:change|update|correct|edit|modify)\s+(?:my|our)\s+(?:[\p{L}]+\s+)?(?:address|phone|mobile|email|e-mail|name|bank|contact|details|number|iban)(?![\p{L}])/u;
const EN_DIRECT = phraseRegex(["did you receive my", "have you received my", "did you get my", "how much do i owe", "what do i owe"]);

const FA_RECORD = phraseRegex(
  [
    "خسارت",
    "پرونده",
    "قسط",
    "اقساط",
    "بیمه نامه",
    "پرداخت",
    "بازپرداخت",
    "استرداد",
    "وجه",
    "حق بیمه",
    "تمدید",
    "آدرس",
    "نشانی",
    "شماره تلفن",
    "شماره موبایل",
    "شماره همراه",
    "تلفن",
    "بدهی",
    "درخواست",
    "قرارداد",
    "کارت بیمه",
    "بیمه",
  ].flatMap((noun) => [`${noun}م`, `${noun} ام`, `${noun} من`, `${noun} ما`, `${noun} های من`, `${noun}هایم`, `${noun} هایم`]),
);
const FA_STRONG_RECORD = phraseRegex(
  ["قسط", "اقساط", "بازپرداخت", "استرداد", "بدهی", "پرونده", "درخواست"].flatMap((noun) => [`${noun}م`, `${noun} ام`, `${noun} من`, `${noun} هایم`, `${noun}هایم`]),
);
const FA_STATE = phraseRegex([
  "وضعیت",
  "کی",
  "چه زمانی",
  "چه وقت",
  "تاریخ",
  "سررسید",
  "موعد",
  "تمام",
  "منقضی",
  "انقضا",
  "اعتبار",
  "رسید",
  "رسیده",
  "دریافت",
  "شماره",
  "تغییر",
  "عوض",
  "اصلاح",
  "ویرایش",
  "پیگیری",
  "کجاست",
  "مانده",
  "باقی",
  "واریز",
  "تایید",
  "پرداخت شد",
  "پرداخت شده",
  "چقدر است",
  "چقدره",
  "بعدی",
]);
// Questions about how something works are knowledge even when they say "my".
const PROCEDURE = phraseRegex([
  "how do i",
  "how can i",
  "how to",
  "can i",
  "could i",
  "where can i",
  "what documents",
  "which documents",
  "is it possible",
  "چگونه",
  "چطور می توانم",
  "چطور میتوانم",
  "چطوری",
  "از کجا",
  "روش",
  "مراحل",
  "مدارک",
  "آیا می توانم",
  "آیا میتوانم",
  "می توانم",
  "میتوانم",
  "امکان",
]);
const COVERAGE = phraseRegex(["cover", "covers", "covered", "coverage", "include", "includes", "included", "pay for", "پوشش", "شامل", "جبران", "تحت پوشش"]);

/** "My father likes to speak to someone…": every talking verb of the message follows a habit told of someone else. */
function describesOthers(folded: string): boolean {
  const verbs = [...folded.matchAll(new RegExp(HANDOFF_VERB.source, "gu"))];
  return (
    verbs.length > 0 &&
    verbs.every((m) =>
      toldOfOthers(
        folded
          .slice(0, m.index)
          .split(/[^\p{L}\p{N}']+/u)
          .filter((w) => w !== ""),
      ),
    )
  );
}

export function triage(input: TriageInput): TriageOutput {
  const folded = foldForMatch(input.text);
  const terms = contentTerms(input.text);

  if (BARE_HANDOFF.test(folded)) return { intent: "handoff_request", confidence: 0.9 };
  if (HUMAN.test(folded) && (HANDOFF_VERB.test(folded) || HUMAN_STRONG.test(folded)) && !describesOthers(folded)) {
    // "agent" also means an insurance agent; only a talk/connect verb makes it a person request.
    return { intent: "handoff_request", confidence: HUMAN_STRONG.test(folded) ? 0.95 : 0.85 };
  }

  const account = accountScore(folded);
  if (account > 0) return { intent: "account", confidence: account };

  const strong = terms.filter((t) => STRONG_IN_SCOPE.has(t));
  const rest = terms.filter((t) => !CHITCHAT_TERMS.has(t));
  if (CHITCHAT.test(folded) && strong.length === 0 && rest.length <= 1) {
    return { intent: "chitchat", confidence: rest.length === 0 ? 0.9 : 0.7 };
  }
  if (terms.length === 0) {
    // Nothing to look up ("?", "ok then"): a conversational turn. An elliptical follow-up with
    // only stopwords ("how much is it?") still continues the previous question.
    if (latestQueryLine(input.history) !== undefined && isElliptical(folded)) return { intent: "knowledge", confidence: 0.6 };
    return { intent: "chitchat", confidence: 0.5 };
  }

  if (strong.length > 0) return { intent: "knowledge", confidence: round2(Math.min(0.95, 0.7 + 0.05 * strong.length)) };
  const offTopic = terms.some((t) => OFF_TOPIC.has(t));
  if (offTopic) return { intent: "out_of_scope", confidence: 0.9 };
  if (terms.some((t) => WEAK_IN_SCOPE.has(t))) return { intent: "knowledge", confidence: 0.6 };
  // "what about passengers?" only makes sense as a follow-up of the previous question.
  if (latestQueryLine(input.history) !== undefined && (isElliptical(folded) || terms.length <= 2)) {
    return { intent: "knowledge", confidence: 0.65 };
  }
  return { intent: "out_of_scope", confidence: round2(Math.min(0.85, 0.6 + 0.05 * terms.length)) };
}

/** 0 when the message is not about the user's own records; otherwise the confidence. */
function accountScore(folded: string): number {
  if (EN_CHANGE.test(folded)) return PROCEDURE.test(folded) ? 0.6 : 0.8;
  if (EN_DIRECT.test(folded)) return 0.85;
  if (/(?<![\p{L}])(?:تغییر|عوض|اصلاح|ویرایش)(?![\p{L}])/u.test(folded) && /(?:آدرس|نشانی|شماره|تلفن|موبایل|ایمیل)(?:م| ?ام| من)(?![\p{L}])/u.test(folded)) {
    return PROCEDURE.test(folded) ? 0.6 : 0.8;
  }
  if (COVERAGE.test(folded) || PROCEDURE.test(folded)) return 0;

  const en = EN_RECORD.exec(folded);
  if (en !== null) {
    if (EN_STATE.test(folded)) return 0.85;
    if (EN_STRONG_RECORD.test(en[1] ?? "")) return 0.7;
  }
  if (FA_RECORD.test(folded)) {
    if (FA_STATE.test(folded)) return 0.85;
    if (FA_STRONG_RECORD.test(folded)) return 0.7;
  }
  return 0;
}
