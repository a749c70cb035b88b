import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator ("none" attestation, discoverable credentials, user verified)
 * for HTTP tests: it answers the options the shop sends as a browser and a security key would,
 * signing with a real key (ES256 unless told: Ed25519, RS256, ML-DSA-44) the server checks like any other.
 */
export type PasskeyAlgorithm = 'ES256' | 'Ed25519' | 'RS256' | 'ML-DSA-44';

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  algorithm: PasskeyAlgorithm;
  userHandle: string;
  counter: number;
}

/** Each algorithm's key pair and its public key as a COSE key (RFC 9053, RFC 8230, draft-ietf-cose-dilithium). */
type CoseKey = Map<number, number | Uint8Array>;

function keyPair(algorithm: PasskeyAlgorithm): { privateKey: KeyObject; cose: CoseKey } {
  const bytes = (value: string | undefined) => new Uint8Array(Buffer.from(value!, 'base64url'));
  if (algorithm === 'ES256') {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    // kty EC2, alg ES256, crv P-256, x, y
    return {
      privateKey,
      cose: new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, bytes(jwk.x)],
        [-3, bytes(jwk.y)],
      ]),
    };
  }
  if (algorithm === 'Ed25519') {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    // kty OKP, alg EdDSA, crv Ed25519, x
    return {
      privateKey,
      cose: new Map<number, number | Uint8Array>([
        [1, 1],
        [3, -8],
        [-1, 6],
        [-2, bytes(publicKey.export({ format: 'jwk' }).x)],
      ]),
    };
  }
  if (algorithm === 'RS256') {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = publicKey.export({ format: 'jwk' });
    // kty RSA, alg RS256, n, e
    return {
      privateKey,
      cose: new Map<number, number | Uint8Array>([
        [1, 3],
        [3, -257],
        [-1, bytes(jwk.n)],
        [-2, bytes(jwk.e)],
      ]),
    };
  }
  const { privateKey, publicKey } = generateKeyPairSync('ml-dsa-44');
  // kty AKP, alg ML-DSA-44, pub
  return {
    privateKey,
    cose: new Map<number, number | Uint8Array>([
      [1, 7],
      [3, -48],
      // Node's JSON Web Key for ML-DSA carries the raw public key as `pub` (an AKP key), not in its types yet.
      [-1, bytes((publicKey.export({ format: 'jwk' }) as { pub?: string }).pub)],
    ]),
  };
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftwareAuthenticator {
  readonly credentials: Credential[] = [];
  private readonly origin: string;
  constructor(origin: string) {
    this.origin = origin;
  }

  /** navigator.credentials.create() for the shop's registration options. */
  create(
    options: { challenge: string; rp: { id?: string }; user: { id: string }; pubKeyCredParams?: { alg: number }[] },
    { verifyUser = true, algorithm = 'ES256' }: { verifyUser?: boolean; algorithm?: PasskeyAlgorithm } = {},
  ) {
    const { privateKey, cose } = keyPair(algorithm);
    const offered = options.pubKeyCredParams?.map((param) => param.alg);
    if (offered && !offered.includes(cose.get(3) as number)) throw new Error(`the shop does not offer ${algorithm}`);
    const credential: Credential = { id: randomBytes(32), privateKey, algorithm, userHandle: options.user.id, counter: 0 };
    this.credentials.push(credential);
    const attested = Buffer.concat([
      Buffer.alloc(16), // AAGUID
      u16(credential.id.length),
      credential.id,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const authData = Buffer.concat([
      rpIdHash(options.rp.id!),
      Buffer.from([UP | AT | (verifyUser ? UV : 0)]),
      u32(credential.counter),
      attested,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const id = credential.id.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['usb'],
      },
    };
  }

  /** navigator.credentials.get() for the shop's sign-in options, with a credential this authenticator holds. */
  get(
    options: { challenge: string; rpId?: string },
    { credential = this.credentials[0]!, counterStep = 1, origin = this.origin } = {},
  ) {
    credential.counter += counterStep;
    const authData = Buffer.concat([rpIdHash(options.rpId!), Buffer.from([UP | UV]), u32(credential.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const signed = Buffer.concat([authData, createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest()]);
    const id = credential.id.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON,
        authenticatorData: authData.toString('base64url'),
        signature: signWith(credential, signed).toString('base64url'),
        userHandle: credential.userHandle,
      },
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
  }
}

/** ES256 and RS256 hash with SHA-256 first; Ed25519 and ML-DSA-44 sign the message itself. */
function signWith(credential: Credential, data: Buffer): Buffer {
  const hash = credential.algorithm === 'ES256' || credential.algorithm === 'RS256' ? 'sha256' : null;
  return sign(hash, data, credential.privateKey);
}

function rpIdHash(rpId: string): Buffer {
  return createHash('sha256').update(rpId).digest();
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}
