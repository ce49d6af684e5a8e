/** What GeoJS knows about one address, validated and normalised (see src/services/geojs/geojs-answer.ts). */
export interface GeoRecord {
  /** The canonical address (see `parseIpAddress`). */
  ip: string;
  /** False for GeoJS's "unknown" record: private, reserved and unrouted addresses, or no data. */
  known: boolean;
  country?: { code: string; code3?: string; name: string };
  region?: string;
  city?: string;
  continentCode?: string;
  latitude?: number;
  longitude?: number;
  accuracyKm?: number;
  /** Undefined when GeoJS has no network for the address (it reports the private ASN 64512). */
  asn?: number;
  organization?: string;
  /** An IANA zone this runtime knows (an unknown name is dropped rather than crash a formatter). */
  timezone?: string;
}

