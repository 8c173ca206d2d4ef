import type { EvidenceChunk } from "../../../src/models/roles.js";

/**
 * Realistic insurance chunks in both languages, shaped as the retriever returns them. Numbers,
 * negations and product names are deliberate: generate must pick the right sentence, verify must
 * notice when one is changed.
 */

type Fixture = Omit<EvidenceChunk, "score">;

const HEALTH_FAMILY_EN: Fixture = {
  chunkId: "health-supplementary-en#2",
  documentId: "health-supplementary-en",
  title: "Supplementary health insurance",
  product: "health-supplementary",
  domain: "health",
  lang: "en",
  text: [
    "## Family members",
    "The policyholder's spouse and children under 25 can be added to the same supplementary health policy.",
    "A spouse is covered from the first day of the policy, with no waiting period for hospitalisation.",
    "Children are covered from birth if they are added within 30 days.",
    "Parents of the policyholder cannot be added to a family policy; they need a separate policy.",
  ].join("\n"),
};

const HEALTH_DENTAL_EN: Fixture = {
  chunkId: "health-supplementary-en#3",
  documentId: "health-supplementary-en",
  title: "Supplementary health insurance",
  product: "health-supplementary",
  domain: "health",
  lang: "en",
  text: ["## Dental care", "Dental treatment is covered up to 20,000,000 rials per insured person per policy year.", "Cosmetic dentistry and orthodontics are excluded."].join(
    "\n",
  ),
};

const MOTOR_BODY_DEDUCTIBLE_EN: Fixture = {
  chunkId: "motor-body-en#3",
  documentId: "motor-body-en",
  title: "Motor body insurance",
  product: "motor-body",
  domain: "motor",
  lang: "en",
  text: [
    "## Deductible",
    "For each claim, the deductible is 10% of the assessed loss, with a minimum of 5,000,000 rials.",
    "If the driver at fault had no valid licence, the deductible rises to 30%.",
    "The deductible does not apply to total theft of the vehicle.",
  ].join("\n"),
};

const MOTOR_BODY_PRICE_EN: Fixture = {
  chunkId: "motor-body-en#1",
  documentId: "motor-body-en",
  title: "Motor body insurance",
  product: "motor-body",
  domain: "motor",
  lang: "en",
  text: [
    "## Price",
    "The annual premium of motor body insurance is 2.5% of the vehicle's market value.",
    "Drivers with no claims in the previous year get a 25% no-claims discount.",
  ].join("\n"),
};

const MOTOR_TPL_PASSENGERS_EN: Fixture = {
  chunkId: "motor-third-party-en#1",
  documentId: "motor-third-party-en",
  title: "Motor third-party liability insurance",
  product: "motor-third-party",
  domain: "motor",
  lang: "en",
  text: [
    "## Who is covered",
    "Motor third-party liability insurance covers bodily injury to third parties, including passengers in the insured vehicle.",
    "The driver at fault is not covered by third-party insurance; driver accident cover is an optional add-on.",
  ].join("\n"),
};

const MOTOR_TPL_PRICE_EN: Fixture = {
  chunkId: "motor-third-party-en#2",
  documentId: "motor-third-party-en",
  title: "Motor third-party liability insurance",
  product: "motor-third-party",
  domain: "motor",
  lang: "en",
  text: [
    "## Price",
    "The premium of third-party insurance depends on the vehicle type and the number of cylinders.",
    "For a passenger car with four cylinders, the annual premium in 2024 is 9,800,000 rials.",
  ].join("\n"),
};

const TRAVEL_SCHENGEN_EN: Fixture = {
  chunkId: "travel-schengen-en#1",
  documentId: "travel-schengen-en",
  title: "Travel insurance for Schengen visas",
  product: "travel-schengen",
  domain: "travel",
  lang: "en",
  text: [
    "## Schengen visa requirements",
    "For a Schengen visa, travel insurance must cover at least 30,000 euros of medical expenses and repatriation.",
    "Our Schengen plan covers up to 50,000 euros and is accepted by all Schengen embassies.",
    "Cover starts on the departure date written on the policy.",
  ].join("\n"),
};

const HEALTH_FAMILY_FA: Fixture = {
  chunkId: "health-supplementary-fa#2",
  documentId: "health-supplementary-fa",
  title: "بیمه تکمیلی درمان",
  product: "health-supplementary",
  domain: "health",
  lang: "fa",
  text: [
    "## اعضای خانواده",
    "همسر و فرزندان زیر ۲۵ سال بیمه‌گذار را می‌توان به همان بیمه‌نامه تکمیلی درمان اضافه کرد.",
    "همسر از روز اول بیمه‌نامه تحت پوشش است و برای بستری دوره انتظار ندارد.",
    "فرزندان در صورت اضافه شدن ظرف ۳۰ روز از تولد تحت پوشش قرار می‌گیرند.",
    "پدر و مادر بیمه‌گذار را نمی‌توان به بیمه‌نامه خانواده اضافه کرد.",
  ].join("\n"),
};

const MOTOR_BODY_DEDUCTIBLE_FA: Fixture = {
  chunkId: "motor-body-fa#3",
  documentId: "motor-body-fa",
  title: "بیمه بدنه خودرو",
  product: "motor-body",
  domain: "motor",
  lang: "fa",
  text: [
    "## فرانشیز",
    "فرانشیز هر خسارت ۱۰ درصد مبلغ خسارت ارزیابی‌شده و حداقل ۵٬۰۰۰٬۰۰۰ ریال است.",
    "اگر راننده مقصر گواهینامه معتبر نداشته باشد، فرانشیز به ۳۰ درصد افزایش می‌یابد.",
    "در سرقت کلی خودرو فرانشیز کسر نمی‌شود.",
  ].join("\n"),
};

const MOTOR_TPL_PASSENGERS_FA: Fixture = {
  chunkId: "motor-third-party-fa#1",
  documentId: "motor-third-party-fa",
  title: "بیمه شخص ثالث خودرو",
  product: "motor-third-party",
  domain: "motor",
  lang: "fa",
  text: [
    "## افراد تحت پوشش",
    "بیمه شخص ثالث خسارت‌های جانی وارد شده به اشخاص ثالث، از جمله سرنشینان خودروی بیمه‌شده، را جبران می‌کند.",
    "راننده مقصر تحت پوشش بیمه شخص ثالث نیست و پوشش حوادث راننده به صورت جداگانه ارائه می‌شود.",
  ].join("\n"),
};

const TRAVEL_SCHENGEN_FA: Fixture = {
  chunkId: "travel-schengen-fa#1",
  documentId: "travel-schengen-fa",
  title: "بیمه مسافرتی ویزای شینگن",
  product: "travel-schengen",
  domain: "travel",
  lang: "fa",
  text: [
    "## الزامات ویزای شینگن",
    "برای ویزای شینگن، بیمه مسافرتی باید دست‌کم ۳۰٬۰۰۰ یورو هزینه‌های درمان و بازگرداندن را پوشش دهد.",
    "طرح شینگن ما تا ۵۰٬۰۰۰ یورو پوشش می‌دهد و مورد قبول همه سفارت‌های شینگن است.",
  ].join("\n"),
};

export const FIXTURES = {
  HEALTH_FAMILY_EN,
  HEALTH_DENTAL_EN,
  MOTOR_BODY_DEDUCTIBLE_EN,
  MOTOR_BODY_PRICE_EN,
  MOTOR_TPL_PASSENGERS_EN,
  MOTOR_TPL_PRICE_EN,
  TRAVEL_SCHENGEN_EN,
  HEALTH_FAMILY_FA,
  MOTOR_BODY_DEDUCTIBLE_FA,
  MOTOR_TPL_PASSENGERS_FA,
  TRAVEL_SCHENGEN_FA,
} as const;

/** A fixture as a retrieved chunk with a score. */
export function chunk(fixture: Fixture, score = 0.7): EvidenceChunk {
  return { ...fixture, score };
}

/** The sentence lines of a fixture (headings removed), to assert verbatim quoting. */
export function sentencesOf(fixture: Fixture): string[] {
  return fixture.text.split("\n").filter((line) => !line.startsWith("#"));
}
