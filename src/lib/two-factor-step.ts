import type QRCode from 'qrcode';

/** A QR code's dark modules as one SVG path (no inline script or style), with its quiet zone. */
export interface QrDrawing {
  path: string;
  size: number;
}

/**
 * What two-factor's settings show: the set-up form, the QR code to scan (with the backup codes the
 * set-up made, shown once it is confirmed), or backup codes to keep. The island moves through them
 * itself; a form posted before it ran gets its step from the page (decision 34).
 */
export type TwoFactorStep =
  | { kind: 'idle' }
  | { kind: 'scan'; uri: string; codes: string[]; qr?: QrDrawing }
  | { kind: 'codes'; codes: string[]; fresh: boolean };

type QrModules = ReturnType<typeof QRCode.create>['modules'];

const QUIET_ZONE = 4;

export function qrDrawing(modules: QrModules): QrDrawing {
  let path = '';
  for (let row = 0; row < modules.size; row++)
    for (let column = 0; column < modules.size; column++)
      if (modules.get(row, column)) path += `M${column + QUIET_ZONE},${row + QUIET_ZONE}h1v1h-1z`;
  return { path, size: modules.size + QUIET_ZONE * 2 };
}
