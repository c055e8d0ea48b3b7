print("turnstile")
