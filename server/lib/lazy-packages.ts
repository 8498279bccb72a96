/**
 * Packages a start does not need, loaded with their first use instead (~460 ms of an
 * embedded start's module loading, decision 024). Each is imported once; the promise is shared.
 */
let sharpModule: Promise<typeof import('sharp')> | undefined;
let nodemailerModule: Promise<typeof import('nodemailer')> | undefined;
let otplibModule: Promise<typeof import('otplib')> | undefined;
let ffmpegModule: Promise<typeof import('@ffmpeg-installer/ffmpeg')> | undefined;
let argon2Module: Promise<typeof import('@node-rs/argon2')> | undefined;
let countryCoderModule: Promise<typeof import('@rapideditor/country-coder')> | undefined;

/** libvips through sharp: photo uploads, the demo's pictures, icons and the landers' videos. */
export async function loadSharp(): Promise<typeof import('sharp')['default']> {
  sharpModule ??= import('sharp');
  return (await sharpModule).default;
}

/** nodemailer: the first mail sent or written to the outbox. */
export async function loadNodemailer(): Promise<typeof import('nodemailer')['default']> {
  nodemailerModule ??= import('nodemailer');
  return (await nodemailerModule).default;
}

/**
 * The ffmpeg binary's path: the landers' videos, made in the background. Null when the package is
 * not installed (the Docker image leaves it out unless built with DEMO_VIDEOS=1): the landers then
 * show photos, and nothing else needs it.
 */
export async function loadFfmpegPath(): Promise<string | null> {
  ffmpegModule ??= import('@ffmpeg-installer/ffmpeg');
  try {
    return (await ffmpegModule).path;
  } catch (error) {
    if (isModuleNotFound(error)) return null;
    throw error;
  }
}

function isModuleNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ERR_MODULE_NOT_FOUND';
}

/** Argon2 (a native module): the first password hashed or checked. */
export function loadArgon2(): Promise<typeof import('@node-rs/argon2')> {
  argon2Module ??= import('@node-rs/argon2');
  return argon2Module;
}

/** otplib: staff sign-in codes. */
export function loadOtplib(): Promise<typeof import('otplib')> {
  otplibModule ??= import('otplib');
  return otplibModule;
}

/** country-coder with its borders (a large GeoJSON, ~100 ms): the map lander and a geocode. */
export function loadCountryCoder(): Promise<typeof import('@rapideditor/country-coder')> {
  countryCoderModule ??= import('@rapideditor/country-coder');
  return countryCoderModule;
}
