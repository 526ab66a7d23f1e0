print("galley")
