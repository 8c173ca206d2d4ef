import type { Example, TrainClassifierOptions } from "../../src/learn/index.js";

/**
 * A tiny bilingual gates set, written for these tests only (the real data is ~1,500–2,000
 * examples per language). The training texts are clean; the test texts are what users really
 * type: typos, words run together or split, ZWNJ dropped or replaced by a space, Arabic letter
 * forms, colloquial endings. Most of their words never occur in training, whole.
 */
const en = (label: string, texts: string[]): Example[] => texts.map((text) => ({ text, label }));

export const TINY_TRAIN: Example[] = [
  ...en("restricted:cancellation", [
    "I want to cancel my policy",
    "please cancel my insurance contract",
    "how do I terminate my policy",
    "cancel the insurance now",
    "I would like to end my contract early",
    "stop the renewal and cancel it",
    "می‌خواهم بیمه‌نامه‌ام را لغو کنم",
    "لطفا قرارداد بیمه را فسخ کنید",
    "بیمه‌نامه را کنسل کنید",
    "درخواست لغو بیمه دارم",
    "چطور بیمه‌ام را لغو کنم",
    "قرارداد را فسخ می‌کنم",
  ]),
  ...en("handoff_request", [
    "let me talk to a human",
    "connect me to an agent",
    "I want a real person",
    "transfer me to an operator",
    "can I speak with a representative",
    "put me through to a customer service person",
    "با اپراتور صحبت کنم",
    "لطفا به کارشناس وصلم کنید",
    "می‌خواهم با یک انسان حرف بزنم",
    "اپراتور لطفا",
    "با پشتیبان انسانی صحبت کنم",
    "یک کارشناس با من تماس بگیرد",
  ]),
  ...en("knowledge", [
    "what is the deductible for motor insurance",
    "does the health plan cover dental treatment",
    "how long is the waiting period for maternity",
    "which documents are needed for travel insurance",
    "what is the coverage limit for fire insurance",
    "is theft covered by the device plan",
    "فرانشیز بیمه بدنه چقدر است",
    "بیمه تکمیلی دندانپزشکی را پوشش می‌دهد",
    "دوره انتظار زایمان چقدر است",
    "مدارک لازم برای بیمه مسافرتی چیست",
    "سقف پوشش بیمه آتش‌سوزی چقدر است",
    "سرقت گوشی تحت پوشش است",
  ]),
  ...en("chitchat", [
    "hello there",
    "thank you so much",
    "good morning",
    "thanks a lot, bye",
    "hi, how are you",
    "have a nice day",
    "سلام",
    "خیلی ممنون",
    "صبح بخیر",
    "مرسی خداحافظ",
    "سلام حالتون چطوره",
    "روز خوبی داشته باشید",
  ]),
  ...en("restricted:complaint", [
    "I want to file a complaint",
    "I am complaining about your service",
    "I am lodging a formal complaint",
    "a complaint about the branch staff",
    "register my complaint please",
    "I wish to complain about the delay",
    "می‌خواهم شکایت کنم",
    "از خدمات شما شکایت دارم",
    "شکایت رسمی ثبت کنید",
    "از کارمند شعبه شاکی هستم",
    "شکایتم را ثبت کنید",
    "به خاطر تاخیر شکایت دارم",
  ]),
];

export const TINY_TEST: Example[] = [
  ...en("restricted:cancellation", [
    "cancellation of insurence",
    "pls cancell it",
    "termination of the contrat",
    "ميخواهم بيمهنامه ام را لغوكنم",
    "بیمه نامه مو کنسلش کنین",
    "فسخ قراردادم",
  ]),
  ...en("handoff_request", ["humans only, agnet pls", "operater", "represntative", "اپراتورتون کجاست", "کارشناستون رو وصل کنین", "انسانی میخوام"]),
  ...en("knowledge", ["deductable for motor", "maternity waiting periods", "dentistry coverage", "فرانشیزش چقدره", "پوششهای دندانپزشکی", "مدارک مسافرتيش"]),
  ...en("chitchat", ["helo", "thankss", "mornin", "سلاااام", "ممنونم", "مرسیی"]),
  ...en("restricted:complaint", ["complaints", "complainin about staff", "formal complaint lodged", "شکایتی دارم", "شکایاتم", "شاکیم"]),
];

/**
 * Options for training on the tiny set: three folds, and calibration bars low enough for 60
 * examples (on tiny data no probability comes near the defaults).
 */
export const TINY_OPTIONS: TrainClassifierOptions = {
  name: "tiny",
  train: TINY_TRAIN,
  test: TINY_TEST,
  calibration: { folds: 3, minSupport: 2, minThreshold: 0.3, targetPrecision: 0.9 },
};
