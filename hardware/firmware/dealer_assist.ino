// Reference firmware for the dealer-assist dice shaker and button panel (protocol version 3, see
// ../PROTOCOL.md). One sketch for both: set DEVICE_KIND below. Written for an Arduino Uno / Nano (AVR) but uses
// only the core Arduino API. The dice reader itself is hardware-specific: implement readDice() for your sensor.
// Protocol 3: every frame after ID NEW carries an HMAC-SHA-256 tag under a session key derived from the key
// paired with the kiosk (kept in EEPROM); SHA-256 and HMAC are written out below (FIPS 180-4, RFC 2104).

#include <Arduino.h>
#include <EEPROM.h>
// Format strings stay in flash (PSTR, snprintf_P): RAM is 2 KB on an ATmega328.
#include <string.h>

// ---- configuration -------------------------------------------------------------------------------------
#define KIND_SHAKER 1
#define KIND_PANEL 2
#ifndef DEVICE_KIND
#define DEVICE_KIND KIND_SHAKER           // or KIND_PANEL
#endif
#ifndef BAUD
#define BAUD 115200                       // or 9600
#endif
#ifndef SHAKE_MS
#define SHAKE_MS 2000UL                   // how long the motor runs
#endif
static const char FIRMWARE[] = "3.0.0";
#ifndef SERIAL_NUMBER
#define SERIAL_NUMBER "SK-000001"
#endif
static const char SERIAL_NO[] = SERIAL_NUMBER; // unique per unit

static const uint8_t MOTOR_PIN = 5, DOME_PIN = 6, JAM_PIN = 7;   // shaker: motor out, dome switch in, stall in
static const uint8_t BUTTON_PINS[5] = {8, 9, 10, 11, 12};        // panel: to ground, internal pull-ups
// Pairing needs a person at the device: the shaker's pairing jumper (pin 4 to ground) fitted at power-up, or the
// panel's CONFIRM button held while it powers up. Only then does the device take a new key (PAIR).
static const uint8_t PAIR_JUMPER_PIN = 4, PAIR_BUTTON_PIN = 9;
static const int EEPROM_BOOT = 0, EEPROM_PAIRED = 2, EEPROM_KEY = 4;  // power-ups; 0xA5 once paired; the key
static const char *const BUTTON_NAMES[5] = {"SHAKE", "CONFIRM", "NEXT", "VOID", "CALL"};
static const unsigned long HEARTBEAT_MS = 1000, EVENT_RETRY_MS = 250, DEBOUNCE_MS = 20;

// ---- state ---------------------------------------------------------------------------------------------
enum State { READY, SHAKING, DOME_OPEN, JAMMED, SENSOR_FAULT };
static const char *const STATE_NAMES[] = {"READY", "SHAKING", "DOME_OPEN", "JAMMED", "SENSOR_FAULT"};
static State state = READY;

static char line[101];               // one received frame, '$' .. LF (at most 100 bytes)
static uint8_t lineLen = 0;
static bool inFrame = false;

static uint16_t bootNumber = 0;      // power-ups, kept in EEPROM: the high half of the session number
static uint16_t sessionLow = 0;      // random at power-up, one more at every ID NEW: the low half
static uint32_t session = 0;         // named in every event and every answer to SHAKE
static uint32_t eventNumber = 0;     // the last event number of this session
static uint32_t lastShake = 0;       // SHAKE is never acted on twice: a repeat of this shake number is a retry
static char lastShakeReply[40] = ""; // ... and gets this same reply again
static uint32_t shakingNumber = 0;
static unsigned long shakeStarted = 0;

#define QUEUE_SIZE 16                // events waiting for the host's ACK, oldest first
enum EventKind : uint8_t { EV_DICE, EV_DICE_ERROR, EV_BUTTON, EV_STATE };
static const char *const ERROR_NAMES[] = {"SENSOR", "JAMMED", "DOME_OPEN"};
enum ShakeError : uint8_t { ERR_SENSOR, ERR_JAMMED, ERR_DOME_OPEN, NO_ERROR = 0xFF };
struct Event {                       // kept small (13 bytes, not the frame's 48 characters): RAM is 2 KB
  uint8_t seq;                       // its sequence number on the wire
  EventKind kind;
  uint32_t number;                   // its event number in this session (the session is always the current one:
  uint32_t shake;                    //   ID NEW drops the queue); the shake number of a DICE
  uint8_t value[3];                  // dice (0: not found); or the error, the button and DOWN, the state
};
static Event events[QUEUE_SIZE];
static uint8_t queueHead = 0, queueCount = 0, eventSeq = 0;
static unsigned long eventSentAt = 0, lastHeartbeat = 0;

static bool buttonDown[5];
static unsigned long buttonChanged[5];

static uint8_t pairedKey[32];        // from EEPROM; shared with the kiosk only
static bool paired = false, pairingMode = false;
static uint8_t sessionKey[32];       // HMAC(pairedKey, label, challenge, session): new at every ID NEW
static bool haveSessionKey = false;

// ---- SHA-256 and HMAC-SHA-256 (FIPS 180-4, RFC 2104), small rather than fast -------------------------------
static const uint32_t SHA_K[64] PROGMEM = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

struct Sha256 {
  uint32_t h[8];
  uint8_t block[64];
  uint8_t used;                      // bytes in block
  uint32_t bytes;                    // message length so far (frames and keys are short)
};

// Rotations built from whole-byte moves and at most four one-bit steps: an AVR has no barrel shifter, and
// avr-gcc turns a 32-bit shift by n into an n-step loop (SHA-256 took 11 ms a block that way, 47 ms a tag).
static inline uint32_t rotateByte(uint32_t x) { return x >> 8 | x << 24; }  // compiled as byte moves
static inline uint32_t rotateRight1(uint32_t x) { return x & 1 ? x >> 1 | 0x80000000UL : x >> 1; }
static inline uint32_t rotateLeft1(uint32_t x) { return x & 0x80000000UL ? x << 1 | 1 : x << 1; }
__attribute__((always_inline)) static inline uint32_t ror(uint32_t x, uint8_t n) {
  uint8_t bytes = n / 8, bits = n % 8;
  if (bits > 4) bytes++;             // a byte too far, then back left by the few bits over
  for (uint8_t i = 0; i < bytes; i++) x = rotateByte(x);
  if (bits > 4) {
    for (uint8_t i = bits; i < 8; i++) x = rotateLeft1(x);
  } else {
    for (uint8_t i = 0; i < bits; i++) x = rotateRight1(x);
  }
  return x;
}
// >> by a constant is a loop too: SHA-256's two shifts (3 and 10), by bytes and bits.
__attribute__((always_inline)) static inline uint32_t shr(uint32_t x, uint8_t n) {
  for (uint8_t i = 0; i < n / 8; i++) x >>= 8;
  for (uint8_t i = 0; i < n % 8; i++) x >>= 1;
  return x;
}

static void shaCompress(Sha256 &s) {
  uint32_t w[16], v[8];
  for (uint8_t i = 0; i < 8; i++) v[i] = s.h[i];
  for (uint8_t i = 0; i < 64; i++) {
    uint32_t wi;
    if (i < 16) {
      wi = (uint32_t)s.block[4 * i] << 24 | (uint32_t)s.block[4 * i + 1] << 16 | (uint32_t)s.block[4 * i + 2] << 8 |
           s.block[4 * i + 3];
    } else {                         // the message schedule, kept in a ring of 16 words
      uint32_t a = w[(i + 1) & 15], b = w[(i + 14) & 15];
      wi = w[i & 15] + (ror(a, 7) ^ ror(a, 18) ^ shr(a, 3)) + w[(i + 9) & 15] + (ror(b, 17) ^ ror(b, 19) ^ shr(b, 10));
    }
    w[i & 15] = wi;
    uint32_t t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) +
                  pgm_read_dword(&SHA_K[i]) + wi;
    uint32_t t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
    for (uint8_t j = 7; j > 0; j--) v[j] = v[j - 1];
    v[4] += t1;
    v[0] = t1 + t2;
  }
  for (uint8_t i = 0; i < 8; i++) s.h[i] += v[i];
}

static void shaBegin(Sha256 &s) {
  static const uint32_t H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  for (uint8_t i = 0; i < 8; i++) s.h[i] = H0[i];
  s.used = 0;
  s.bytes = 0;
}

static void shaAdd(Sha256 &s, const uint8_t *data, uint16_t len) {
  for (uint16_t i = 0; i < len; i++) {
    s.block[s.used++] = data[i];
    s.bytes++;
    if (s.used == 64) {
      shaCompress(s);
      s.used = 0;
    }
  }
}

static void shaEnd(Sha256 &s, uint8_t out[32]) {
  uint32_t bits = s.bytes * 8;
  uint8_t one = 0x80, zero = 0;
  shaAdd(s, &one, 1);
  while (s.used != 56) shaAdd(s, &zero, 1);
  uint8_t length[8] = {0, 0, 0, 0, (uint8_t)(bits >> 24), (uint8_t)(bits >> 16), (uint8_t)(bits >> 8), (uint8_t)bits};
  shaAdd(s, length, 8);
  for (uint8_t i = 0; i < 32; i++) out[i] = s.h[i / 4] >> (24 - 8 * (i % 4));
}

// HMAC-SHA-256 with a 32-byte key: begin, add the message in pieces, end.
static Sha256 hmacState;
static const uint8_t *hmacKey;

static void hmacBegin(const uint8_t key[32]) {
  hmacKey = key;
  uint8_t pad[64];
  for (uint8_t i = 0; i < 64; i++) pad[i] = (i < 32 ? key[i] : 0) ^ 0x36;
  shaBegin(hmacState);
  shaAdd(hmacState, pad, 64);
}

static void hmacAdd(const char *text, uint16_t len) { shaAdd(hmacState, (const uint8_t *)text, len); }

static void hmacEnd(uint8_t out[32]) {
  uint8_t inner[32], pad[64];
  shaEnd(hmacState, inner);
  for (uint8_t i = 0; i < 64; i++) pad[i] = (i < 32 ? hmacKey[i] : 0) ^ 0x5c;
  shaBegin(hmacState);
  shaAdd(hmacState, pad, 64);
  shaAdd(hmacState, inner, 32);
  shaEnd(hmacState, out);
}

// HMAC's first block under the session key, padded and XORed with 0x36 (inner) and 0x5C (outer), is the same for
// every frame of a session: hashed once at ID NEW, so that a tag costs two SHA-256 blocks, not four.
static uint32_t sessionInner[8], sessionOuter[8];

static void keepPaddedKeyState(uint8_t xorWith, uint32_t state[8]) {
  uint8_t pad[64];
  for (uint8_t i = 0; i < 64; i++) pad[i] = (i < 32 ? sessionKey[i] : 0) ^ xorWith;
  shaBegin(hmacState);
  shaAdd(hmacState, pad, 64);
  memcpy(state, hmacState.h, sizeof hmacState.h);
}

static void resumeState(const uint32_t state[8]) {
  memcpy(hmacState.h, state, sizeof hmacState.h);
  hmacState.used = 0;
  hmacState.bytes = 64;
}

// The tag of a frame: the first 8 bytes of HMAC(session key, direction + "SS TYPE FIELDS").
static void frameTag(char direction, const char *covered, uint8_t len, uint8_t tag[8]) {
  uint8_t inner[32], mac[32];
  resumeState(sessionInner);
  hmacAdd(&direction, 1);
  hmacAdd(covered, len);
  shaEnd(hmacState, inner);
  resumeState(sessionOuter);
  shaAdd(hmacState, inner, 32);
  shaEnd(hmacState, mac);
  memcpy(tag, mac, 8);
}

// ---- frames --------------------------------------------------------------------------------------------
// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF; "123456789" gives 0x29B1.
static uint16_t crc16(const char *data, uint8_t len) {
  uint16_t crc = 0xFFFF;
  for (uint8_t i = 0; i < len; i++) {
    crc ^= (uint16_t)(uint8_t)data[i] << 8;
    for (uint8_t bit = 0; bit < 8; bit++) crc = (crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1;
  }
  return crc;
}

// Writes "$SS body #TTTTTTTTTTTTTTTT*CCCC\r\n" (no tag before a session key is agreed).
static void sendFrame(uint8_t seq, const char *body) {
  char covered[96];
  snprintf_P(covered, sizeof covered, PSTR("%02X %s"), seq, body);
  uint8_t len = strlen(covered);
  if (haveSessionKey) {
    uint8_t tag[8];
    frameTag('D', covered, len, tag);
    len += snprintf_P(covered + len, sizeof covered - len, PSTR(" #"));
    for (uint8_t i = 0; i < 8; i++) len += snprintf_P(covered + len, sizeof covered - len, PSTR("%02X"), tag[i]);
  }
  char tail[8];
  snprintf_P(tail, sizeof tail, PSTR("*%04X\r\n"), crc16(covered, len));
  Serial.write('$');
  Serial.print(covered);
  Serial.print(tail);
}

static void sendHeadEvent() {
  const Event &e = events[queueHead];
  char body[56];
  int len = snprintf_P(body, sizeof body, PSTR("%s %08lX %08lX "),
                     e.kind == EV_BUTTON ? "BTN" : e.kind == EV_STATE ? "STATE" : "DICE", (unsigned long)session,
                     (unsigned long)e.number);
  if (e.kind == EV_DICE_ERROR) {
    snprintf_P(body + len, sizeof body - len, PSTR("%08lX ERR %s"), (unsigned long)e.shake, ERROR_NAMES[e.value[0]]);
  } else if (e.kind == EV_DICE) {
    len += snprintf_P(body + len, sizeof body - len, PSTR("%08lX"), (unsigned long)e.shake);
    for (uint8_t i = 0; i < 3; i++)  // a die the reader did not find is sent as "-": never guessed
      len += snprintf(body + len, sizeof body - len, e.value[i] ? " %u" : " -", e.value[i]);
  } else if (e.kind == EV_BUTTON) {
    snprintf_P(body + len, sizeof body - len, PSTR("%s %s"), BUTTON_NAMES[e.value[0]], e.value[1] ? "DOWN" : "UP");
  } else {
    snprintf_P(body + len, sizeof body - len, PSTR("%s"), STATE_NAMES[e.value[0]]);
  }
  sendFrame(e.seq, body);
  eventSentAt = millis();
}

// A new session: a number never used before, events numbered from 1 again, no memory of an earlier shake.
static void newSession() {
  sessionLow++;
  session = (uint32_t)bootNumber << 16 | sessionLow;
  eventNumber = 0;
  lastShake = 0;
  lastShakeReply[0] = 0;
}

// Queues an event of this session with the next event number (the host takes an event only if it names this
// session and a new number).
static void queueEvent(EventKind kind, uint32_t shake, uint8_t a, uint8_t b = 0, uint8_t c = 0) {
  if (queueCount == QUEUE_SIZE) {    // full: drop the oldest button edge that is not being sent
    for (uint8_t i = 1; i < queueCount; i++) {
      if (events[(queueHead + i) % QUEUE_SIZE].kind == EV_BUTTON) {
        for (uint8_t j = i; j + 1 < queueCount; j++)
          events[(queueHead + j) % QUEUE_SIZE] = events[(queueHead + j + 1) % QUEUE_SIZE];
        queueCount--;
        break;
      }
    }
    if (queueCount == QUEUE_SIZE) return;
  }
  eventSeq = eventSeq % 255 + 1;     // 01..FF, never 00
  Event &e = events[(queueHead + queueCount) % QUEUE_SIZE];
  e.seq = eventSeq;
  e.kind = kind;
  e.number = ++eventNumber;
  e.shake = shake;
  e.value[0] = a;
  e.value[1] = b;
  e.value[2] = c;
  queueCount++;
  if (queueCount == 1) sendHeadEvent();
}

static void setState(State next) {
  if (next == state) return;
  bool fault = next != READY && next != SHAKING, wasFault = state != READY && state != SHAKING;
  state = next;
  if (fault || wasFault) queueEvent(EV_STATE, 0, state);
}

// ---- the dice ------------------------------------------------------------------------------------------
// Fill values[0..2] with the faces read (1..6), 0 for a die not found, or return false if the reader failed.
// Report what the sensor sees; never guess or clamp (the host rejects anything but three faces 1..6).
static bool readDice(uint8_t values[3]) {
  // Replace with your reader (camera module, Hall sensors, contacts...). Bench demo: fair random dice.
  for (uint8_t i = 0; i < 3; i++) values[i] = random(1, 7);
  return true;
}

static void finishShake(ShakeError error) {
  digitalWrite(MOTOR_PIN, LOW);
  uint8_t dice[3];
  if (error == NO_ERROR && !readDice(dice)) error = ERR_SENSOR;
  if (state == SHAKING) state = READY;
  if (error != NO_ERROR) queueEvent(EV_DICE_ERROR, shakingNumber, error);
  else queueEvent(EV_DICE, shakingNumber, dice[0], dice[1], dice[2]);
}

// "SHAKE" carries the host's shake number: exactly 8 hex digits. Returns false for anything else.
static bool parseNumber(const char *text, uint32_t *number);
static int hexValue(char c);

static void sendIdent(uint8_t seq) {
  char body[80];
  snprintf_P(body, sizeof body, PSTR("IDENT 3 %s %s %s %08lX"), DEVICE_KIND == KIND_SHAKER ? "SHAKER" : "PANEL",
           FIRMWARE, SERIAL_NO, (unsigned long)session);
  sendFrame(seq, body);
}

// ID NEW with the host's challenge: session key = HMAC(paired key, "dealer-assist v3 session CHALLENGE SESSION").
static void deriveSessionKey(const char *challenge) {
  haveSessionKey = false;
  if (!paired || strlen(challenge) != 24) return;
  char text[64];
  uint8_t len = snprintf_P(text, sizeof text, PSTR("dealer-assist v3 session %s %08lX"), challenge, (unsigned long)session);
  for (uint8_t i = 25; i < 49; i++)
    if (text[i] >= 'a' && text[i] <= 'f') text[i] -= 'a' - 'A';  // the challenge is hashed in capitals
  hmacBegin(pairedKey);
  hmacAdd(text, len);
  hmacEnd(sessionKey);
  keepPaddedKeyState(0x36, sessionInner);
  keepPaddedKeyState(0x5c, sessionOuter);
  haveSessionKey = true;
}

// PAIR k1 k2 k3 k4: four fields of 16 hex digits, taken only in pairing mode (a person at the device).
static void pair(uint8_t seq, const char *fields) {
  if (!pairingMode) {
    sendFrame(seq, DEVICE_KIND == KIND_SHAKER ? "NOPAIR JUMPER" : "NOPAIR BUTTON");
    return;
  }
  uint8_t key[32], n = 0;
  for (const char *c = fields; c != NULL && *c && n < 64; c++) {
    if (*c == ' ') continue;
    int v = hexValue(*c);
    if (v < 0) return;               // malformed: no answer
    if (n % 2 == 0) key[n / 2] = v << 4; else key[n / 2] |= v;
    n++;
  }
  if (n != 64) return;
  memcpy(pairedKey, key, 32);
  for (uint8_t i = 0; i < 32; i++) EEPROM.put(EEPROM_KEY + i, key[i]);
  EEPROM.put(EEPROM_PAIRED, (uint8_t)0xA5);
  paired = true;
  pairingMode = false;
  sendFrame(seq, "PAIRED");
}

// ---- commands ------------------------------------------------------------------------------------------
// Called for frames whose tag was right, and for ID NEW and PAIR, which carry none.
static void handleFrame(uint8_t seq, char *type, char *fields) {
  char body[64];
  if (strcmp(type, "ID") == 0) {
    if (fields != NULL && strncmp(fields, "NEW", 3) == 0) {  // new session: new number, old events dropped
      newSession();
      queueCount = 0;
      deriveSessionKey(fields[3] == ' ' ? fields + 4 : "");
    }
    sendIdent(seq);
    if (queueCount) sendHeadEvent();  // a host that came back gets what it missed at once
  } else if (strcmp(type, "PAIR") == 0) {
    pair(seq, fields);
  } else if (strcmp(type, "ST") == 0) {
    snprintf_P(body, sizeof body, PSTR("STAT %s %08lX"), STATE_NAMES[state], (unsigned long)lastShake);
    sendFrame(seq, body);
  } else if (strcmp(type, "SHAKE") == 0) {
    uint32_t shake;
    if (fields == NULL || !parseNumber(fields, &shake)) return;  // malformed: no answer
    if (DEVICE_KIND != KIND_SHAKER) {
      snprintf_P(body, sizeof body, PSTR("NAK UNSUPPORTED %08lX %08lX"), (unsigned long)session, (unsigned long)shake);
      sendFrame(seq, body);
    } else if (shake == lastShake && lastShakeReply[0]) {
      sendFrame(seq, lastShakeReply);  // a retry: same answer, no second roll
    } else if (shake < lastShake || shake == 0) {
      snprintf_P(body, sizeof body, PSTR("NAK STALE %08lX %08lX"), (unsigned long)session, (unsigned long)shake);
      sendFrame(seq, body);            // an old SHAKE sent again: never shaken
    } else {
      const char *refusal[] = {NULL, "NAK BUSY", "NAK DOME_OPEN", "NAK JAMMED", "NAK SENSOR"};
      snprintf_P(lastShakeReply, sizeof lastShakeReply, PSTR("%s %08lX %08lX"), refusal[state] ? refusal[state] : "ACK",
               (unsigned long)session, (unsigned long)shake);
      lastShake = shake;
      sendFrame(seq, lastShakeReply);
      if (state == READY) {
        state = SHAKING;
        shakingNumber = shake;
        shakeStarted = millis();
        digitalWrite(MOTOR_PIN, HIGH);
      }
    }
  } else if (strcmp(type, "ACK") == 0 && fields == NULL) {
    if (queueCount && events[queueHead].seq == seq) {
      queueHead = (queueHead + 1) % QUEUE_SIZE;
      queueCount--;
      if (queueCount) sendHeadEvent();
    }
  }
  // Anything else is not a host command: dropped without an answer.
}

static int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

static bool parseNumber(const char *text, uint32_t *number) {
  if (strlen(text) != 8) return false;
  uint32_t value = 0;
  for (uint8_t i = 0; i < 8; i++) {
    int v = hexValue(text[i]);
    if (v < 0) return false;
    value = value << 4 | (uint32_t)v;
  }
  *number = value;
  return true;
}

// True when the 16 hex digits at text are the tag the host should have put on covered[0..len).
static bool tagMatches(const char *covered, uint8_t len, const char *text) {
  if (!haveSessionKey) return false;
  uint8_t tag[8], diff = 0;
  frameTag('H', covered, len, tag);
  for (uint8_t i = 0; i < 8; i++) {
    int high = hexValue(text[2 * i]), low = hexValue(text[2 * i + 1]);
    if (high < 0 || low < 0) return false;
    diff |= tag[i] ^ (uint8_t)(high << 4 | low);  // no early exit: the time taken says nothing about the tag
  }
  return diff == 0;
}

// line holds "$SS TYPE[ FIELDS][ #TAG]*CCCC" (CR LF removed). Bad grammar or CRC: dropped silently. A frame whose
// tag is missing or wrong is not acted on, except ID NEW and PAIR (no tag) and a plain ID, answered untagged so
// that a host of a session this device no longer has (it restarted) starts a new one.
static void parseLine() {
  char *star = strrchr(line, '*');
  if (lineLen < 6 || star == NULL || line + lineLen - star != 5 || line[3] != ' ') return;
  uint16_t crc = 0;
  for (uint8_t i = 1; i <= 4; i++) {
    int v = hexValue(star[i]);
    if (v < 0) return;
    crc = crc << 4 | v;
  }
  if (crc16(line + 1, star - line - 1) != crc) return;
  int high = hexValue(line[1]), low = hexValue(line[2]);
  if (high < 0 || low < 0) return;
  uint8_t seq = high << 4 | low;
  char *end = star, *tag = NULL;
  if (star - line >= 22 && star[-17] == '#' && star[-18] == ' ') {
    tag = star - 16;
    end = star - 18;
  }
  bool believed = tag != NULL && tagMatches(line + 1, end - line - 1, tag);
  *end = 0;
  char *type = line + 4;
  char *fields = strchr(type, ' ');
  if (fields != NULL) *fields++ = 0;
  bool bare = strcmp(type, "PAIR") == 0 || (strcmp(type, "ID") == 0 && fields != NULL && strncmp(fields, "NEW", 3) == 0);
  if (believed || bare) {
    handleFrame(seq, type, fields);
  } else if (strcmp(type, "ID") == 0 && fields == NULL) {
    bool had = haveSessionKey;
    haveSessionKey = false;          // an IDENT the host cannot take for this session's
    sendIdent(seq);
    haveSessionKey = had;
  }
}

static void receive(char c) {
  if (c == '$') {                    // a start always begins a new frame (resynchronises after noise)
    inFrame = true;
    lineLen = 0;
  } else if (!inFrame) {
    return;                          // garbage between frames
  } else if (c == '\n') {
    if (lineLen && line[lineLen - 1] == '\r') lineLen--;
    line[lineLen] = 0;
    inFrame = false;
    parseLine();
    return;
  } else if (lineLen >= sizeof line - 2) {
    inFrame = false;                 // too long: drop and hunt for the next '$'
    return;
  }
  line[lineLen++] = c;
  line[lineLen] = 0;
}

// ---- main loop -----------------------------------------------------------------------------------------
void setup() {
  Serial.begin(BAUD);
  EEPROM.get(EEPROM_BOOT, bootNumber);
  bootNumber++;
  EEPROM.put(EEPROM_BOOT, bootNumber);
  uint8_t mark = 0;
  EEPROM.get(EEPROM_PAIRED, mark);
  paired = mark == 0xA5;
  for (uint8_t i = 0; paired && i < 32; i++) EEPROM.get(EEPROM_KEY + i, pairedKey[i]);
  pinMode(PAIR_JUMPER_PIN, INPUT_PULLUP);
  pinMode(PAIR_BUTTON_PIN, INPUT_PULLUP);
  pairingMode = digitalRead(DEVICE_KIND == KIND_SHAKER ? PAIR_JUMPER_PIN : PAIR_BUTTON_PIN) == LOW;
  randomSeed(analogRead(A0) ^ bootNumber);
  sessionLow = (uint16_t)random(0, 0x10000L);
  newSession();
  pinMode(MOTOR_PIN, OUTPUT);
  pinMode(DOME_PIN, INPUT_PULLUP);
  pinMode(JAM_PIN, INPUT_PULLUP);
  for (uint8_t i = 0; i < 5; i++) {
    pinMode(BUTTON_PINS[i], INPUT_PULLUP);
    buttonDown[i] = digitalRead(BUTTON_PINS[i]) == LOW;  // a button held at power-up (pairing) is no press
  }
}

void loop() {
  unsigned long now = millis();
  // Sensors and buttons first, so that a command is always answered from the state as it is now.

  if (DEVICE_KIND == KIND_SHAKER) {
    bool domeOpen = digitalRead(DOME_PIN) == HIGH, jammed = digitalRead(JAM_PIN) == LOW;
    State fault = jammed ? JAMMED : domeOpen ? DOME_OPEN : READY;
    if (state == SHAKING && fault != READY) {
      finishShake(fault == JAMMED ? ERR_JAMMED : ERR_DOME_OPEN);  // a fault mid-shake ends it with an error
      setState(fault);
    } else if (state == SHAKING && now - shakeStarted >= SHAKE_MS) {
      finishShake(NO_ERROR);
    } else if (state != SHAKING && state != SENSOR_FAULT) {
      setState(fault);
    }
  } else {
    for (uint8_t i = 0; i < 5; i++) {
      bool down = digitalRead(BUTTON_PINS[i]) == LOW;
      if (down != buttonDown[i] && now - buttonChanged[i] >= DEBOUNCE_MS) {
        buttonDown[i] = down;
        buttonChanged[i] = now;
        queueEvent(EV_BUTTON, 0, i, down);
      }
    }
  }

  while (Serial.available()) receive((char)Serial.read());
  if (queueCount && now - eventSentAt >= EVENT_RETRY_MS) sendHeadEvent();
  if (now - lastHeartbeat >= HEARTBEAT_MS) {
    char body[24];
    snprintf_P(body, sizeof body, PSTR("HB %s"), STATE_NAMES[state]);
    sendFrame(0, body);
    lastHeartbeat = now;
  }
}
