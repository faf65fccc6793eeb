// Reference firmware for the dealer-assist dice shaker and button panel (protocol version 2, see
// ../PROTOCOL.md). One sketch for both: set DEVICE_KIND below. Written for an Arduino Uno / Nano (AVR) but uses
// only the core Arduino API. The dice reader itself is hardware-specific: implement readDice() for your sensor.

#include <Arduino.h>
#include <EEPROM.h>
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
static const char FIRMWARE[] = "2.0.0";
static const char SERIAL_NO[] = "SK-000001"; // unique per unit

static const uint8_t MOTOR_PIN = 5, DOME_PIN = 6, JAM_PIN = 7;   // shaker: motor out, dome switch in, stall in
static const uint8_t BUTTON_PINS[5] = {8, 9, 10, 11, 12};        // panel: to ground, internal pull-ups
static const char *const BUTTON_NAMES[5] = {"SHAKE", "CONFIRM", "NEXT", "VOID", "CALL"};
static const unsigned long HEARTBEAT_MS = 1000, EVENT_RETRY_MS = 250, DEBOUNCE_MS = 20;

// ---- state ---------------------------------------------------------------------------------------------
enum State { READY, SHAKING, DOME_OPEN, JAMMED, SENSOR_FAULT };
static const char *const STATE_NAMES[] = {"READY", "SHAKING", "DOME_OPEN", "JAMMED", "SENSOR_FAULT"};
static State state = READY;

static char line[81];                // one received frame, '$' .. LF
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
static char events[QUEUE_SIZE][48];  // "DICE ssssssss eeeeeeee cccccccc ERR DOME_OPEN" is the longest
static uint8_t eventSeqs[QUEUE_SIZE];
static uint8_t queueHead = 0, queueCount = 0, eventSeq = 0;
static unsigned long eventSentAt = 0, lastHeartbeat = 0;

static bool buttonDown[5];
static unsigned long buttonChanged[5];

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

// Writes "$SS body*CCCC\r\n".
static void sendFrame(uint8_t seq, const char *body) {
  char covered[72];
  snprintf(covered, sizeof covered, "%02X %s", seq, body);
  char tail[8];
  snprintf(tail, sizeof tail, "*%04X\r\n", crc16(covered, strlen(covered)));
  Serial.write('$');
  Serial.print(covered);
  Serial.print(tail);
}

static void sendHeadEvent() {
  sendFrame(eventSeqs[queueHead], events[queueHead]);
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

// Queues "TYPE session event rest" (the host takes an event only if it names this session and a new number).
static void queueEvent(const char *type, const char *rest) {
  if (queueCount == QUEUE_SIZE) {    // full: drop the oldest button edge that is not being sent
    for (uint8_t i = 1; i < queueCount; i++) {
      uint8_t slot = (queueHead + i) % QUEUE_SIZE;
      if (strncmp(events[slot], "BTN", 3) == 0) {
        for (uint8_t j = i; j + 1 < queueCount; j++) {
          uint8_t to = (queueHead + j) % QUEUE_SIZE, from = (queueHead + j + 1) % QUEUE_SIZE;
          memmove(events[to], events[from], sizeof events[to]);
          eventSeqs[to] = eventSeqs[from];
        }
        queueCount--;
        break;
      }
    }
    if (queueCount == QUEUE_SIZE) return;
  }
  eventSeq = eventSeq % 255 + 1;     // 01..FF, never 00
  eventNumber++;
  uint8_t slot = (queueHead + queueCount) % QUEUE_SIZE;
  snprintf(events[slot], sizeof events[slot], "%s %08lX %08lX %s", type, (unsigned long)session,
           (unsigned long)eventNumber, rest);
  eventSeqs[slot] = eventSeq;
  queueCount++;
  if (queueCount == 1) sendHeadEvent();
}

static void setState(State next) {
  if (next == state) return;
  bool fault = next != READY && next != SHAKING, wasFault = state != READY && state != SHAKING;
  state = next;
  if (fault || wasFault) queueEvent("STATE", STATE_NAMES[state]);
}

// ---- the dice ------------------------------------------------------------------------------------------
// Fill values[0..2] with the faces read (1..6), 0 for a die not found, or return false if the reader failed.
// Report what the sensor sees; never guess or clamp (the host rejects anything but three faces 1..6).
static bool readDice(uint8_t values[3]) {
  // Replace with your reader (camera module, Hall sensors, contacts...). Bench demo: fair random dice.
  for (uint8_t i = 0; i < 3; i++) values[i] = random(1, 7);
  return true;
}

static void finishShake(const char *error) {
  digitalWrite(MOTOR_PIN, LOW);
  char rest[32];
  uint8_t dice[3];
  if (error == NULL && !readDice(dice)) error = "SENSOR";
  if (error != NULL) {
    snprintf(rest, sizeof rest, "%08lX ERR %s", (unsigned long)shakingNumber, error);
  } else {
    char d[3][3];
    for (uint8_t i = 0; i < 3; i++) snprintf(d[i], sizeof d[i], dice[i] ? "%u" : "-", dice[i]);
    snprintf(rest, sizeof rest, "%08lX %s %s %s", (unsigned long)shakingNumber, d[0], d[1], d[2]);
  }
  if (state == SHAKING) state = READY;
  queueEvent("DICE", rest);
}

// "SHAKE" carries the host's shake number: exactly 8 hex digits. Returns false for anything else.
static bool parseNumber(const char *text, uint32_t *number);

// ---- commands ------------------------------------------------------------------------------------------
static void handleFrame(uint8_t seq, char *type, char *fields) {
  char body[64];
  if (strcmp(type, "ID") == 0) {
    if (fields != NULL && strcmp(fields, "NEW") == 0) {  // new session: new number, old events dropped
      newSession();
      queueCount = 0;
    }
    snprintf(body, sizeof body, "IDENT 2 %s %s %s %08lX", DEVICE_KIND == KIND_SHAKER ? "SHAKER" : "PANEL",
             FIRMWARE, SERIAL_NO, (unsigned long)session);
    sendFrame(seq, body);
    if (queueCount) sendHeadEvent();  // a host that came back gets what it missed at once
  } else if (strcmp(type, "ST") == 0) {
    snprintf(body, sizeof body, "STAT %s %08lX", STATE_NAMES[state], (unsigned long)lastShake);
    sendFrame(seq, body);
  } else if (strcmp(type, "SHAKE") == 0) {
    uint32_t shake;
    if (fields == NULL || !parseNumber(fields, &shake)) return;  // malformed: no answer
    if (DEVICE_KIND != KIND_SHAKER) {
      snprintf(body, sizeof body, "NAK UNSUPPORTED %08lX %08lX", (unsigned long)session, (unsigned long)shake);
      sendFrame(seq, body);
    } else if (shake == lastShake && lastShakeReply[0]) {
      sendFrame(seq, lastShakeReply);  // a retry: same answer, no second roll
    } else if (shake < lastShake || shake == 0) {
      snprintf(body, sizeof body, "NAK STALE %08lX %08lX", (unsigned long)session, (unsigned long)shake);
      sendFrame(seq, body);            // an old SHAKE sent again: never shaken
    } else {
      const char *refusal[] = {NULL, "NAK BUSY", "NAK DOME_OPEN", "NAK JAMMED", "NAK SENSOR"};
      snprintf(lastShakeReply, sizeof lastShakeReply, "%s %08lX %08lX", refusal[state] ? refusal[state] : "ACK",
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
    if (queueCount && eventSeqs[queueHead] == seq) {
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

// line holds "$SS TYPE[ FIELDS]*CCCC" (CR LF removed). Bad grammar or CRC: dropped silently.
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
  *star = 0;
  char *type = line + 4;
  char *fields = strchr(type, ' ');
  if (fields != NULL) *fields++ = 0;
  handleFrame(high << 4 | low, type, fields);
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
  EEPROM.get(0, bootNumber);
  bootNumber++;
  EEPROM.put(0, bootNumber);
  randomSeed(analogRead(A0) ^ bootNumber);
  sessionLow = (uint16_t)random(0, 0x10000L);
  newSession();
  pinMode(MOTOR_PIN, OUTPUT);
  pinMode(DOME_PIN, INPUT_PULLUP);
  pinMode(JAM_PIN, INPUT_PULLUP);
  for (uint8_t i = 0; i < 5; i++) pinMode(BUTTON_PINS[i], INPUT_PULLUP);
}

void loop() {
  unsigned long now = millis();
  // Sensors and buttons first, so that a command is always answered from the state as it is now.

  if (DEVICE_KIND == KIND_SHAKER) {
    bool domeOpen = digitalRead(DOME_PIN) == HIGH, jammed = digitalRead(JAM_PIN) == LOW;
    State fault = jammed ? JAMMED : domeOpen ? DOME_OPEN : READY;
    if (state == SHAKING && fault != READY) {
      finishShake(fault == JAMMED ? "JAMMED" : "DOME_OPEN");  // a fault mid-shake ends it with an error
      setState(fault);
    } else if (state == SHAKING && now - shakeStarted >= SHAKE_MS) {
      finishShake(NULL);
    } else if (state != SHAKING && state != SENSOR_FAULT) {
      setState(fault);
    }
  } else {
    for (uint8_t i = 0; i < 5; i++) {
      bool down = digitalRead(BUTTON_PINS[i]) == LOW;
      if (down != buttonDown[i] && now - buttonChanged[i] >= DEBOUNCE_MS) {
        buttonDown[i] = down;
        buttonChanged[i] = now;
        char rest[16];
        snprintf(rest, sizeof rest, "%s %s", BUTTON_NAMES[i], down ? "DOWN" : "UP");
        queueEvent("BTN", rest);
      }
    }
  }

  while (Serial.available()) receive((char)Serial.read());
  if (queueCount && now - eventSentAt >= EVENT_RETRY_MS) sendHeadEvent();
  if (now - lastHeartbeat >= HEARTBEAT_MS) {
    char body[24];
    snprintf(body, sizeof body, "HB %s", STATE_NAMES[state]);
    sendFrame(0, body);
    lastHeartbeat = now;
  }
}
