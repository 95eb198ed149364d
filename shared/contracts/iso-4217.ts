/**
 * The currency codes a deal takes: ISO 4217 List One as in force on 2026-11-01, kept here as
 * data rather than read from `Intl.supportedValuesOf('currency')`, whose answer is ICU's and
 * changes with the Node version (Node 22 refuses VED, Venezuela's current code, and still takes
 * HRK, withdrawn in 2023). National currencies, funds (BOV, CLF, CHE, CHW, COU, MXV, USN, UYI,
 * UYW) and the supranational units and metals (XAG, XAU, XBA–XBD, XDR, XPD, XPT, XSU, XUA) are
 * in; XTS (reserved for testing) and XXX (no currency involved) are not money, so not either.
 * When the maintenance agency (SIX) publishes an amendment, change this file and its test.
 */
export const ACTIVE_CURRENCIES: ReadonlySet<string> = new Set(
  `AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD
   CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP
   GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR
   KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN
   MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD
   SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX
   USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF
   XPT XSU XUA YER ZAR ZMW ZWG`.split(/\s+/),
);

/** Codes withdrawn from List One that clients still send, with what replaced them, so the 400 says what to use. */
export const WITHDRAWN_CURRENCIES: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    ANG: 'XCG', BGN: 'EUR', BYR: 'BYN', CUC: 'CUP', CYP: 'EUR', EEK: 'EUR', GHC: 'GHS', HRK: 'EUR',
    LTL: 'EUR', LVL: 'EUR', MRO: 'MRU', MTL: 'EUR', MZM: 'MZN', ROL: 'RON', SIT: 'EUR', SKK: 'EUR',
    SLL: 'SLE', STD: 'STN', TRL: 'TRY', VEB: 'VES', VEF: 'VES', ZMK: 'ZMW', ZWL: 'ZWG',
  }),
);

/**
 * Why a deal may not take this currency now, or null: a withdrawn code, with what replaced it.
 * The contract takes withdrawn codes so that a deal stored with one before it was withdrawn (or
 * before this list replaced ICU's) can be sent back unchanged; the deals worker refuses any
 * other use (workers/deals/money.ts).
 */
export function withdrawnCurrencyProblem(code: string): string | null {
  const replacement = WITHDRAWN_CURRENCIES[code];
  return replacement ? `must be an active ISO 4217 currency code: ${code} was withdrawn, use ${replacement}` : null;
}

/**
 * ISO 4217's minor unit (the decimals an amount is written with) where it is not 2; the units
 * and metals without one (XAG, XAU, XBA–XBD, XDR, XPD, XPT, XSU, XUA) count whole units. Kept as
 * data for the reason the list above is: ICU writes IQD, IRR, LBP and RSD without decimals,
 * though ISO gives IQD three and the others two.
 */
const MINOR_UNITS_NOT_TWO: Readonly<Record<string, number>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, number>, {
    ...Object.fromEntries('BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0])),
    ...Object.fromEntries('XAG XAU XBA XBB XBC XBD XDR XPD XPT XSU XUA'.split(' ').map((c) => [c, 0])),
    ...Object.fromEntries('BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3])),
    CLF: 4,
    UYW: 4,
  }),
);

/** The decimals of the currency's amounts: an amount of 125050 in USD (2) is 1,250.50, in JPY (0) ¥125,050. */
export function minorUnitDigits(code: string): number {
  return MINOR_UNITS_NOT_TWO[code] ?? 2;
}
